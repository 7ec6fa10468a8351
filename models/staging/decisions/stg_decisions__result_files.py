"""Staging (Python): evalhouse.decisions.ingest.result_files -- JSON read with exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.decisions import ingest

    return ingest.result_files()
