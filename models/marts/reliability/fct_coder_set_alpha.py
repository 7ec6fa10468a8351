"""Item-level and rank-based Krippendorff's alpha of the human raters alone and with each judge added as a coder.

The logic is evalhouse.stats.reliability.coder_set_alpha_table: the statistics come from the unit pattern counts of
int_reliability_unit_patterns (evalhouse.stats.unit_patterns); of int_reliability_scores only the systems per group
are counted, in DuckDB. See _reliability__models.yml.
Incremental per suite (a per-suite model of the rating chain, macros/rating_chain.sql): a rebuild recomputes the
suites whose ratings changed (evalhouse.warehouse.rating_chain); --full-refresh recomputes all.
"""


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append",
               on_schema_change="fail")  # pre-hook rating_chain_delete('suite'): in the YAML (no Jinja here)
    from evalhouse.stats.reliability import coder_set_alpha_table
    from evalhouse.warehouse.rating_chain import as_stored, changed_suites, in_suites, unchanged

    suites = changed_suites(dbt.ref("int_rating_changes"), dbt.is_incremental)
    if suites == []:
        return unchanged(session, dbt.this)
    # each criterion's direction as the suite declares it (rank 1 = best system)
    directions = dbt.ref("int_rubric_criteria").project(
        "suite, rubric_id, rubric_version, criterion, direction <> 'lower' as higher_is_better").df()
    table = coder_set_alpha_table(in_suites(dbt.ref("int_reliability_scores"), suites), directions,
                                  patterns=in_suites(dbt.ref("int_reliability_unit_patterns"), suites))
    return table if suites is None else as_stored(session, table, dbt.this)
