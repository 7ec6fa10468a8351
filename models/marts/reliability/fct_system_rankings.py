"""Systems ranked per suite x task x criterion by the human mean, by each human rater and by each judge.

It reads int_reliability_cells (the rating rows counted by equal values in DuckDB), not the rating rows.
The logic is evalhouse.stats.reliability.system_rankings_table
(statistics in evalhouse.stats); see _reliability__models.yml.
Incremental per suite (a per-suite model of the rating chain, macros/rating_chain.sql): a rebuild recomputes the
suites whose ratings changed (evalhouse.warehouse.rating_chain); --full-refresh recomputes all.
"""


def model(dbt, session):
    dbt.config(materialized="incremental", incremental_strategy="append",
               on_schema_change="fail")  # pre-hook rating_chain_delete('suite'): in the YAML (no Jinja here)
    from decimal import ROUND_HALF_UP, Decimal

    import pyarrow as pa

    from evalhouse.stats.reliability import system_rankings_table
    from evalhouse.warehouse.rating_chain import as_stored, changed_suites, in_suites, unchanged

    suites = changed_suites(dbt.ref("int_rating_changes"), dbt.is_incremental)
    if suites == []:
        return unchanged(session, dbt.this)
    # each criterion's direction as the suite declares it (rank 1 = best system)
    directions = dbt.ref("int_rubric_criteria").project(
        "suite, rubric_id, rubric_version, criterion, direction <> 'lower' as higher_is_better").df()
    table = pa.Table.from_pandas(
        system_rankings_table(in_suites(dbt.ref("int_reliability_cells"), suites), directions), preserve_index=False)
    # mean_score as in fct_model_run_criterion_scores: DECIMAL(18,4), half-up
    means = [None if v is None else Decimal(v).quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP)
             for v in table.column("mean_score").to_pylist()]
    table = table.set_column(table.schema.get_field_index("mean_score"), "mean_score",
                             pa.array(means, pa.decimal128(18, 4)))
    return table if suites is None else as_stored(session, table, dbt.this)
