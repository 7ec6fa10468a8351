"""Base (Python): evalhouse.decisions.case_files.case_files -- every case CSV (pack/cases/<case>/{pos,budget,
inventory}.csv) with the delimiter and number locale it is read with, or the reason it cannot be read.

The declared locales come from the rows of pack/cases.csv as base_decisions__cases read them (the declared source
decisions.cases), not from the file again. The case CSVs are found under decisions_dir (the globs of the sources
decisions.pos, .budget and .inventory) and only their first line is opened here, to check the header and detect
the delimiter when none is declared; base_decisions__pos, __budget and __inventory read them, with this listing."""


def model(dbt, session):
    dbt.config(materialized="table")
    from pathlib import Path

    from evalhouse.decisions.case_files import case_files, case_locales

    cases = dbt.ref("base_decisions__cases").order("source_row")
    rows = [dict(zip(cases.columns, values)) for values in cases.fetchall()]
    # problems name the row as <cases.csv>:<line>; line 1 is the header
    locales = case_locales((f"{row['filename']}:{row['source_row'] + 1}", row) for row in rows)
    root = dbt.config.get("decisions_dir")
    return case_files(Path(root), source_root=root, locales=locales)


def declared_reads(dbt):
    """Never called. The case CSVs this model opens by path (their first lines) are the files of the sources
    decisions.pos, .budget and .inventory; naming them here puts them in dbt's lineage (dbt reads these calls from
    the code), so that a build that reruns what is downstream of a changed source (evalhouse build) reruns this
    listing when a case CSV is added, removed or changed."""
    return dbt.source("decisions", "pos"), dbt.source("decisions", "budget"), dbt.source("decisions", "inventory")
