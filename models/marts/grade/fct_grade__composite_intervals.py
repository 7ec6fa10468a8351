def model(dbt, session):
    """GRADE overall composite per run (system_id) with a 95% percentile-bootstrap interval over its tasks, tie groups
    and rank bands (evalhouse.grade.intervals.composite_intervals_table; ranks by evalhouse.stats.ranking.rank_bands,
    the rubric leaderboards' rule). Models with fewer tasks than var min_tasks_for_interval are flagged, not ranked.
    composite is fct_grade__overall_scores.composite (DECIMAL(18,12), as every GRADE score); the bounds are on the same
    grid, rounded outward (evalhouse.app.leaderboard.outward_bounds)."""
    dbt.config(materialized="table")
    import pyarrow as pa

    from evalhouse.app.leaderboard import outward_bounds
    from evalhouse.grade.intervals import DIMENSIONS, composite_intervals_table

    tasks = dbt.ref("fct_grade__task_scores").project(
        "pack_id, task_id, system_id, " + ", ".join(f"cast({d} as double) as {d}" for d in DIMENSIONS)).df()
    weights_row = dbt.ref("int_grade__project_weights").project(
        ", ".join(f"cast(w_{d} as double) as {d}" for d in DIMENSIONS)).fetchone()
    if weights_row is None:
        raise ValueError("int_grade__project_weights has no row: the project weights (grade weights) are missing")
    weights = dict(zip(DIMENSIONS, weights_row))
    frame = composite_intervals_table(tasks, weights, min_tasks=int(dbt.config.get("min_tasks_for_interval")))
    overall = dict(dbt.ref("fct_grade__overall_scores").project("system_id, composite").fetchall())
    table = pa.Table.from_pandas(frame, preserve_index=False)
    bounds = [outward_bounds(lo, hi, 12) for lo, hi in zip(table.column("composite_ci_low").to_pylist(),
                                                           table.column("composite_ci_high").to_pylist())]
    columns = {"composite": [overall.get(s) for s in table.column("system_id").to_pylist()],
               "composite_ci_low": [b[0] for b in bounds], "composite_ci_high": [b[1] for b in bounds]}
    for name, values in columns.items():
        table = table.set_column(table.schema.get_field_index(name), name, pa.array(values, pa.decimal128(18, 12)))
    return table
