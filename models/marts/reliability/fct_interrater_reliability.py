"""Inter-rater reliability of the human raters per suite x task x rubric version x criterion.

The logic is evalhouse.stats.reliability.reliability_table: every statistic comes from the unit pattern counts of
int_reliability_unit_patterns (evalhouse.stats.unit_patterns), not from the rating rows. See _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import reliability_table

    return reliability_table(patterns=dbt.ref("int_reliability_unit_patterns"))
