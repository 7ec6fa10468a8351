"""Item-level and rank-based Krippendorff's alpha of the human raters alone and with each judge added as a coder.

The logic is evalhouse.stats.reliability.coder_set_alpha_table: the statistics come from the unit pattern counts of
int_reliability_unit_patterns (evalhouse.stats.unit_patterns); of int_reliability_scores only the systems per group
are counted, in DuckDB. See _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.stats.reliability import coder_set_alpha_table

    # each criterion's direction as the suite declares it (rank 1 = best system)
    directions = dbt.ref("int_rubric_criteria").project(
        "suite, rubric_id, rubric_version, criterion, direction <> 'lower' as higher_is_better").df()
    return coder_set_alpha_table(dbt.ref("int_reliability_scores"), directions,
                                 patterns=dbt.ref("int_reliability_unit_patterns"))
