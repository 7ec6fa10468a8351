"""Staging (Python): evalhouse.decisions.ingest.golden_cases -- JSON read with exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.decisions import ingest

    return ingest.golden_cases()
