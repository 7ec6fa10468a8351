def model(dbt, session):
    """Per model run: score 0-10 with a 95% percentile-bootstrap interval over replies
    (evalhouse.app.leaderboard.run_score_intervals; the statistic is evalhouse.stats.bootstrap.bootstrap_mean_ci). Runs
    with fewer complete replies than var min_replies_for_interval are flagged (is_below_min_replies) and not ranked.
    score_0_10 and its bounds are DECIMAL(18,2), as score_0_10 in every mart."""
    dbt.config(materialized="table")
    from decimal import Decimal

    import pyarrow as pa

    from evalhouse.app.leaderboard import RUN_KEYS, run_score_intervals

    # only the columns run_score_intervals reads, counted in SQL (one row per distinct value, with n_rows, which it
    # reads as that many equal replies): at 1M replies 2,006 rows, 0.3 s, where listing the replies again took 3.5 s
    columns = ", ".join(RUN_KEYS + ["score_status", "total", "max_total"])
    counted = dbt.ref("fct_reply_scores").aggregate(f"{columns}, count(*) as n_rows", columns).df()
    frame = run_score_intervals(counted, min_replies=int(dbt.config.get("min_replies_for_interval")))
    table = pa.Table.from_pandas(frame, preserve_index=False)
    for name in ("score_0_10", "score_ci_low", "score_ci_high"):
        # the values are already on the 2-decimal grid: repr gives their exact decimal text
        values = [None if v is None else Decimal(repr(v)) for v in table.column(name).to_pylist()]
        table = table.set_column(table.schema.get_field_index(name), name, pa.array(values, pa.decimal128(18, 2)))
    return table
