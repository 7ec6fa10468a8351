def model(dbt, session):
    """Per round x measure: exact agreement and Krippendorff's alpha over all readers
    (evalhouse.ratings.round_agreement.round_agreement; formulas in evalhouse.stats)."""
    dbt.config(materialized="table")
    from evalhouse.ratings.round_agreement import round_agreement

    rounds = dbt.ref("int_rounds").df()[["round_id", "suite", "rubric_id", "rubric_version"]]
    out = round_agreement(dbt.ref("fct_round_readings").df())
    rounds = rounds.astype({"round_id": "string", "suite": "string", "rubric_id": "string", "rubric_version": "Int32"})
    # typed before the merge, so an empty mart (no round yet) keeps VARCHAR / INTEGER keys as in every other mart
    return rounds.merge(out, on="round_id", how="inner")[["round_id", "suite", "rubric_id", "rubric_version",
                                                          *out.columns[1:]]]
