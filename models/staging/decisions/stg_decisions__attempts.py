"""Staging (Python): evalhouse.decisions.ingest.attempts -- JSON read with exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.decisions import ingest

    return ingest.attempts()
