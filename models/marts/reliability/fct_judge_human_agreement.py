"""Each judge / metric and each human rater position against the human mean, item and system level.

Each row carries its criterion's direction (evalhouse.stats.reliability.with_direction).
One block of rows per judge-failure policy (excluded, as_recorded; evalhouse.stats.reliability.FAILURE_POLICIES).
It reads int_reliability_cells (the rating rows counted by equal values in DuckDB), not the rating rows.
The logic is evalhouse.stats.reliability.judge_human_table
(statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import judge_human_table, with_direction

    criteria = dbt.ref("int_rubric_criteria").project("suite, rubric_id, rubric_version, criterion, direction").df()
    return with_direction(judge_human_table(dbt.ref("int_reliability_cells")), criteria)
