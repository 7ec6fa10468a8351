def model(dbt, session):
    """Position, length, self-preference, flip and agreement diagnostics (evalhouse.stats.pairwise_marts)."""
    dbt.config(materialized="table")
    from evalhouse.stats.pairwise_marts import judge_diagnostics

    return judge_diagnostics(dbt.ref("int_comparisons").df(), dbt.ref("int_suite_systems").df())
