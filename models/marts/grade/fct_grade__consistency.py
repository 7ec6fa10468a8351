"""GRADE consistency (C4) per pack x task x model over its runs: finding stability, ranking stability, metric
variance and their 0.5 / 0.3 / 0.2 combination, computed by evalhouse.grade_consistency (pure functions, pytest).

Inputs: each run's key_findings in rank order (top 3 used) and its structured_metrics values read as numbers by
evalhouse.grade_text.metric_number (non-numeric values are ignored). Undefined sub-metrics are NULL with a reason.
"""

def model(dbt, session):
    dbt.config(materialized="table")
    from evalhouse.grade_consistency import consistency
    from evalhouse.grade_text import metric_number

    tasks = dbt.ref("int_grade__tasks").select("item_id").fetchall()
    known = {row[0] for row in tasks}
    rows = (
        dbt.ref("stg_grade__pack_responses")
        .select("pack_id, task_id, item_id, model, run, key_findings, structured_metrics")
        .order("pack_id, task_id, model, run")
        .fetchall()
    )
    groups = {}
    for pack_id, task_id, item_id, model_name, run, findings, metrics in rows:
        if item_id not in known:
            continue
        groups.setdefault((pack_id, task_id, item_id, model_name), []).append((run, findings or [], metrics or {}))

    out = []
    for (pack_id, task_id, item_id, model_name), runs in groups.items():
        runs.sort(key=lambda r: (r[0] is None, r[0]))
        findings = [list(r[1]) for r in runs]
        metrics = [{k: metric_number(v) for k, v in r[2].items()} for r in runs]
        res = consistency(findings, metrics)
        out.append({
            "pack_id": pack_id, "task_id": task_id, "item_id": item_id, "model": model_name,
            "n_runs": len(runs),
            "finding_stability": res.finding_stability.value,
            "n_unique_findings": res.finding_stability.n,
            "finding_stability_reason": res.finding_stability.reason,
            "ranking_stability": res.ranking_stability.value,
            "n_run_pairs_ranked": res.ranking_stability.n,
            "ranking_stability_reason": res.ranking_stability.reason,
            "metric_variance": res.metric_variance.value,
            "n_metric_keys": res.metric_variance.n,
            "metric_variance_reason": res.metric_variance.reason,
            "consistency": res.consistency,
            "sub_metrics_used": res.weights_used,
            "consistency_reason": res.reason,
        })
    import pyarrow as pa

    schema = pa.schema([
        ("pack_id", pa.string()), ("task_id", pa.string()), ("item_id", pa.string()), ("model", pa.string()),
        ("n_runs", pa.int64()), ("finding_stability", pa.float64()), ("n_unique_findings", pa.int64()),
        ("finding_stability_reason", pa.string()), ("ranking_stability", pa.float64()),
        ("n_run_pairs_ranked", pa.int64()), ("ranking_stability_reason", pa.string()),
        ("metric_variance", pa.float64()), ("n_metric_keys", pa.int64()), ("metric_variance_reason", pa.string()),
        ("consistency", pa.float64()), ("sub_metrics_used", pa.string()), ("consistency_reason", pa.string()),
    ])
    return pa.Table.from_pylist(out, schema=schema)
