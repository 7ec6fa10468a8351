def model(dbt, session):
    """Cohen's kappa per rater pair x measure over the rubric's full scale (evalhouse.stats.rater_pairs.pair_kappas),
    from the contingency counts of int_rater_pair_scores aggregated in DuckDB (a few cells per pair, not every
    shared reply)."""
    dbt.config(materialized="table")
    from evalhouse.stats.rater_pairs import KEYS, pair_kappas

    keys = ", ".join(KEYS)
    counts = dbt.ref("int_rater_pair_scores").aggregate(
        f"{keys}, value_a, value_b, count(*) as n_units", f"{keys}, value_a, value_b").df()
    criteria = dbt.ref("int_rubric_criteria").df()
    return pair_kappas(counts, criteria)
