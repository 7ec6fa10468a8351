"""Intermediate (Python): evalhouse.decisions.ingest.attempts on the bytes of stg_decisions__attempt_manifest_blobs
(source decisions.attempt_manifests) -- JSON read with exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from pathlib import Path

    from evalhouse.decisions import ingest

    files = ingest.file_blobs(dbt.ref("stg_decisions__attempt_manifest_blobs"))
    return ingest.attempts(Path(dbt.config.get("decisions_dir")).resolve(), files)
