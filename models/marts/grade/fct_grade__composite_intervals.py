def model(dbt, session):
    """GRADE overall composite per run (system_id) with a 95% percentile-bootstrap interval over its tasks, tie groups and
    rank bands (evalhouse.grade_intervals.composite_intervals_table; ranks by evalhouse.ranking.rank_bands, the
    rubric leaderboards' rule). Models with fewer tasks than var min_tasks_for_interval are flagged, not ranked."""
    dbt.config(materialized="table")
    from evalhouse.grade_intervals import DIMENSIONS, composite_intervals_table

    tasks = dbt.ref("fct_grade__task_scores").project(
        "pack_id, task_id, system_id, " + ", ".join(f"cast({d} as double) as {d}" for d in DIMENSIONS)).df()
    weights_row = dbt.ref("int_grade__project_weights").project(
        ", ".join(f"cast(w_{d} as double) as {d}" for d in DIMENSIONS)).fetchone()
    if weights_row is None:
        raise ValueError("int_grade__project_weights has no row: the project weights (grade weights) are missing")
    weights = dict(zip(DIMENSIONS, weights_row))
    return composite_intervals_table(tasks, weights, min_tasks=int(dbt.config.get("min_tasks_for_interval")))
