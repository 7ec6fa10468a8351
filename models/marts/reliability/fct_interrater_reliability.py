"""Inter-rater reliability of the human raters per suite x task x rubric version x criterion.

The logic is evalhouse.stats.reliability.reliability_table
(statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import frame_from_relation, reliability_table

    scores = frame_from_relation(dbt.ref("int_reliability_scores"))
    return reliability_table(scores)
