def model(dbt, session):
    """Cohen's kappa per rater pair x measure over the rubric's full scale (evalhouse.stats.rater_pairs.pair_kappas)."""
    dbt.config(materialized="table")
    from evalhouse.stats.rater_pairs import pair_kappas

    pairs = dbt.ref("int_rater_pair_scores").df()
    criteria = dbt.ref("int_rubric_criteria").df()
    return pair_kappas(pairs, criteria)
