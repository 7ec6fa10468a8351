"""Each judge / metric and each human rater position against the human mean, item and system level.

Each row carries its criterion's direction (evalhouse.stats.reliability.with_direction).
One block of rows per judge-failure policy (excluded, as_recorded; evalhouse.stats.reliability.FAILURE_POLICIES).
The logic is evalhouse.stats.reliability.judge_human_table
(statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import by_failure_policy, frame_from_relation, judge_human_table, with_direction

    scores = frame_from_relation(dbt.ref("int_reliability_scores"))
    criteria = dbt.ref("int_rubric_criteria").project("suite, rubric_id, rubric_version, criterion, direction").df()
    return with_direction(by_failure_policy(judge_human_table, scores), criteria)
