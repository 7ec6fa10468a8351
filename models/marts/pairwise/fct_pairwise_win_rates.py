def model(dbt, session):
    """Win rates per suite x rater group x system x opponent (evalhouse.stats.pairwise_marts.win_rates)."""
    dbt.config(materialized="table")
    from evalhouse.stats.pairwise_marts import win_rates

    return win_rates(dbt.ref("int_comparisons").df(), dbt.ref("int_suite_systems").df())
