def model(dbt, session):
    """Bradley-Terry ratings with bootstrap intervals and rank bands (evalhouse.stats.pairwise_marts.ratings)."""
    dbt.config(materialized="table")
    from evalhouse.stats.pairwise_marts import ratings

    return ratings(dbt.ref("int_comparisons").df(), n_boot=200, seed=0)
