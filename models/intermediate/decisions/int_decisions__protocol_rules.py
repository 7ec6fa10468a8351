"""Intermediate (Python): evalhouse.decisions.ingest.protocol_rules on the bytes of stg_decisions__protocol_blob and
stg_decisions__case_requirements_blob (sources decisions.protocol, decisions.case_requirements) -- JSON read with
exact Decimals, every value as text."""


def model(dbt, session):
    dbt.config(materialized="table")
    from pathlib import Path

    from evalhouse.decisions import ingest

    return ingest.protocol_rules(Path(dbt.config.get("decisions_dir")).resolve(),
                                 ingest.file_blobs(dbt.ref("stg_decisions__protocol_blob")),
                                 ingest.file_blobs(dbt.ref("stg_decisions__case_requirements_blob")))
