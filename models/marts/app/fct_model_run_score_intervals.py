def model(dbt, session):
    """Per model run: score 0-10 with a 95% percentile-bootstrap interval over replies
    (evalhouse.leaderboard.run_score_intervals; the statistic is evalhouse.stats.bootstrap_mean_ci). Runs with fewer
    complete replies than var min_replies_for_interval are flagged (is_below_min_replies) and not ranked."""
    dbt.config(materialized="table")
    from evalhouse.leaderboard import run_score_intervals

    replies = dbt.ref("fct_reply_scores").df()
    return run_score_intervals(replies, min_replies=int(dbt.config.get("min_replies_for_interval")))
