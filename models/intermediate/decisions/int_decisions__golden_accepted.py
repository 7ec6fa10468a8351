"""Intermediate (Python): evalhouse.decisions.ingest.golden_accepted on the bytes of stg_decisions__golden_blob
(source decisions.golden) -- JSON read with exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from pathlib import Path

    from evalhouse.decisions import ingest

    files = ingest.file_blobs(dbt.ref("stg_decisions__golden_blob"))
    return ingest.golden_accepted(Path(dbt.config.get("decisions_dir")).resolve(), files)
