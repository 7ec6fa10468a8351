"""Item-level and rank-based Krippendorff's alpha of the human raters alone and with each judge added as a coder.

The logic is evalhouse.stats.reliability.coder_set_alpha_table
(statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import coder_set_alpha_table, frame_from_relation

    scores = frame_from_relation(dbt.ref("int_reliability_scores"))
    # each criterion's direction as the suite declares it (rank 1 = best system)
    directions = dbt.ref("int_rubric_criteria").project(
        "suite, rubric_id, rubric_version, criterion, direction <> 'lower' as higher_is_better").df()
    return coder_set_alpha_table(scores, directions)
