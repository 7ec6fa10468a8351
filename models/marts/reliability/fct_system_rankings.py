"""Systems ranked per suite x task x criterion by the human mean, by each human rater and by each judge.

The logic is evalhouse.reliability.system_rankings_table (statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.reliability import frame_from_relation, system_rankings_table

    scores = frame_from_relation(dbt.ref("int_reliability_scores"))
    directions = dbt.ref("reliability_criterion_direction").df()
    return system_rankings_table(scores, directions)
