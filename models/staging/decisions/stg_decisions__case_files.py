"""Staging (Python): evalhouse.decisions.case_files.case_files -- every case CSV with its delimiter and number locale
(declared in pack/cases.csv, delimiter detected from the header), or the reason it cannot be read."""


def model(dbt, session):
    dbt.config(materialized="table")
    from pathlib import Path

    from evalhouse.decisions.case_files import case_files

    root = dbt.config.get("decisions_dir")
    return case_files(Path(root), source_root=root)
