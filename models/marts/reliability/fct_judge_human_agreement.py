"""Each judge / metric and each human rater position against the human mean, item and system level.

Each row carries its criterion's direction (evalhouse.stats.reliability.with_direction).
One block of rows per judge-failure policy (excluded, as_recorded; evalhouse.stats.reliability.FAILURE_POLICIES).
It reads int_reliability_cells (the rating rows counted by equal values in DuckDB), not the rating rows.
The logic is evalhouse.stats.reliability.judge_human_table
(statistics in evalhouse.stats); see _reliability__models.yml.
Incremental per suite (a per-suite model of the rating chain, macros/rating_chain.sql): a rebuild recomputes the
suites whose ratings changed (evalhouse.warehouse.rating_chain); --full-refresh recomputes all.
"""


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append",
               on_schema_change="fail")  # pre-hook rating_chain_delete('suite'): in the YAML (no Jinja here)
    from evalhouse.stats.reliability import judge_human_table, with_direction
    from evalhouse.warehouse.rating_chain import as_stored, changed_suites, in_suites, unchanged

    suites = changed_suites(dbt.ref("int_rating_changes"), dbt.is_incremental)
    if suites == []:
        return unchanged(session, dbt.this)
    criteria = dbt.ref("int_rubric_criteria").project("suite, rubric_id, rubric_version, criterion, direction").df()
    table = with_direction(judge_human_table(in_suites(dbt.ref("int_reliability_cells"), suites)), criteria)
    return table if suites is None else as_stored(session, table, dbt.this)
