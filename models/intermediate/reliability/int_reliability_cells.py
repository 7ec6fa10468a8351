"""The sufficient statistics of the judge-human marts: int_reliability_scores' rows counted by equal values, per
judge-failure policy (fct_judge_human_agreement, fct_judge_diagnostics and fct_system_rankings read these cells,
never the rating rows).

The logic is evalhouse.stats.reliability.score_cells (SQL run by DuckDB: the rows never leave the database); see
_reliability__int_models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import score_cells

    return score_cells(dbt.ref("int_reliability_scores"))
