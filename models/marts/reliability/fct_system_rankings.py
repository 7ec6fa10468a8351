"""Systems ranked per suite x task x criterion by the human mean, by each human rater and by each judge.

The logic is evalhouse.reliability.system_rankings_table (statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.reliability import frame_from_relation, system_rankings_table

    scores = frame_from_relation(dbt.ref("int_reliability_scores"))
    # each criterion's direction as the suite declares it (rank 1 = best system)
    directions = dbt.ref("int_rubric_criteria").project(
        "suite, rubric_id, rubric_version, criterion, direction <> 'lower' as higher_is_better").df()
    return system_rankings_table(scores, directions)
