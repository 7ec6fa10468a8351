"""Systems ranked per suite x task x criterion by the human mean, by each human rater and by each judge.

It reads int_reliability_cells (the rating rows counted by equal values in DuckDB), not the rating rows.
The logic is evalhouse.stats.reliability.system_rankings_table
(statistics in evalhouse.stats); see _reliability__models.yml.
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from decimal import ROUND_HALF_UP, Decimal

    import pyarrow as pa

    from evalhouse.stats.reliability import system_rankings_table

    # each criterion's direction as the suite declares it (rank 1 = best system)
    directions = dbt.ref("int_rubric_criteria").project(
        "suite, rubric_id, rubric_version, criterion, direction <> 'lower' as higher_is_better").df()
    table = pa.Table.from_pandas(system_rankings_table(dbt.ref("int_reliability_cells"), directions),
                               preserve_index=False)
    # mean_score as in fct_model_run_criterion_scores: DECIMAL(18,4), half-up
    means = [None if v is None else Decimal(v).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
             for v in table.column("mean_score").to_pylist()]
    return table.set_column(table.schema.get_field_index("mean_score"), "mean_score",
                            pa.array(means, pa.decimal128(18, 4)))
