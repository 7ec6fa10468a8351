"""Intermediate (Python): evalhouse.decisions.ingest.result_files on the bytes of stg_decisions__result_file_blobs
(source decisions.result_files) -- JSON read with exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from pathlib import Path

    from evalhouse.decisions import ingest

    files = ingest.file_blobs(dbt.ref("stg_decisions__result_file_blobs"))
    return ingest.result_files(Path(dbt.config.get("decisions_dir")).resolve(), files)
