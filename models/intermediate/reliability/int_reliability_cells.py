"""The sufficient statistics of the judge-human marts: int_reliability_scores' rows counted by equal values, per
judge-failure policy (fct_judge_human_agreement, fct_judge_diagnostics and fct_system_rankings read these cells,
never the rating rows).

The logic is evalhouse.stats.reliability.score_cells (SQL run by DuckDB: the rows never leave the database); see
_reliability__int_models.yml.
Incremental per suite (a per-suite model of the rating chain, macros/rating_chain.sql): a rebuild recomputes the
suites whose ratings changed (evalhouse.warehouse.rating_chain); --full-refresh recomputes all.
"""


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append",
               on_schema_change="fail")  # pre-hook rating_chain_delete('suite'): in the YAML (no Jinja here)
    from evalhouse.stats.reliability import score_cells
    from evalhouse.warehouse.rating_chain import as_stored, changed_suites, in_suites, unchanged

    suites = changed_suites(dbt.ref("int_rating_changes"), dbt.is_incremental)
    if suites == []:
        return unchanged(session, dbt.this)
    cells = score_cells(in_suites(dbt.ref("int_reliability_scores"), suites))
    return cells if suites is None else as_stored(session, cells, dbt.this)
