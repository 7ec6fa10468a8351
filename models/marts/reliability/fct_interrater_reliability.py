"""Inter-rater reliability of the human raters per suite x task x rubric version x criterion.

The logic is evalhouse.stats.reliability.reliability_table: every statistic comes from the unit pattern counts of
int_reliability_unit_patterns (evalhouse.stats.unit_patterns), not from the rating rows. See _reliability__models.yml.
Incremental per suite (a per-suite model of the rating chain, macros/rating_chain.sql): a rebuild recomputes the
suites whose ratings changed (evalhouse.warehouse.rating_chain); --full-refresh recomputes all.
"""


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append",
               on_schema_change="fail")  # pre-hook rating_chain_delete('suite'): in the YAML (no Jinja here)
    from evalhouse.stats.reliability import reliability_table
    from evalhouse.warehouse.rating_chain import as_stored, changed_suites, in_suites, unchanged

    suites = changed_suites(dbt.ref("int_rating_changes"), dbt.is_incremental)
    if suites == []:
        return unchanged(session, dbt.this)
    table = reliability_table(patterns=in_suites(dbt.ref("int_reliability_unit_patterns"), suites))
    return table if suites is None else as_stored(session, table, dbt.this)
