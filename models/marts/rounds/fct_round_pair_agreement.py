def model(dbt, session):
    """Per round x measure x pair of readers, on the replies both read: exact agreement and Cohen's kappa
    (unweighted, linear, quadratic) over the measure's full scale
    (evalhouse.ratings.round_agreement.round_pair_agreement)."""
    dbt.config(materialized="table")
    from evalhouse.ratings.round_agreement import round_pair_agreement

    return round_pair_agreement(dbt.ref("fct_round_readings").df())
