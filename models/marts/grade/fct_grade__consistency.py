"""GRADE consistency (C4) per pack x task x run (system_id) over its repetitions: finding stability, ranking stability,
metric variance and their 0.5 / 0.3 / 0.2 combination, computed by evalhouse.grade.consistency (pure functions, pytest).

Inputs: each run's top-3 key_findings in rank order (int_grade__response_texts) and its numeric structured_metrics
values (int_grade__run_metric_values: exactly one number and no letter in the value). Undefined sub-metrics are
NULL with a reason. Columns are fetched through Arrow (one Python object per value is the slow part at scale).
"""


def model(dbt, session):
    dbt.config(materialized="table")
    from decimal import ROUND_HALF_UP, Decimal

    import pyarrow as pa

    from evalhouse.grade.consistency import consistency_from_parts, metric_variance_by_group
    from evalhouse.stats.result import StatResult

    NO_METRIC = StatResult(None, 0, "no numeric structured_metrics key in 2 or more runs")

    tasks = dbt.ref("int_grade__tasks").select("pack_id, task_id, item_id").fetchall()
    task_of = {item_id: (pack_id, task_id) for pack_id, task_id, item_id in tasks}

    responses = dbt.ref("int_grade__responses").select("response_id, item_id, system_id, repetition")
    items = dbt.ref("int_grade__response_texts").filter("text_kind = 'key_finding' and position <= 3")
    findings = (
        items.join(responses, "response_id")
        .select("item_id, system_id, repetition, position, text_value as item_text")
        .order("item_id, system_id, repetition, position")
        .to_arrow_table()
    )
    groups = (
        responses.aggregate("item_id, system_id, list(repetition order by repetition) as runs", "item_id, system_id")
        .order("item_id, system_id")
        .to_arrow_table()
    )
    sep = chr(31)  # unit separator: never inside an item id or a run name
    metrics = dbt.ref("int_grade__run_metric_values") \
        .select(f"item_id || '{sep}' || system_id as grp, metric_key, metric_value").to_arrow_table()
    mv = metric_variance_by_group(metrics.column("grp").to_numpy(zero_copy_only=False),
                                  metrics.column("metric_key").to_numpy(zero_copy_only=False),
                                  metrics.column("metric_value").to_numpy(zero_copy_only=False))

    # findings per (item, model): {run: [texts in rank order]}
    f_item = findings.column("item_id").to_pylist()
    f_model = findings.column("system_id").to_pylist()
    f_run = findings.column("repetition").to_pylist()
    f_text = findings.column("item_text").to_pylist()
    by_group: dict = {}
    for it, mo, ru, tx in zip(f_item, f_model, f_run, f_text):
        by_group.setdefault((it, mo), {}).setdefault(ru, []).append(tx)

    out = []
    for it, mo, runs in zip(groups.column("item_id").to_pylist(), groups.column("system_id").to_pylist(),
                            groups.column("runs").to_pylist()):
        if it not in task_of:
            continue
        per_run = by_group.get((it, mo), {})
        runs_findings = [per_run.get(r, []) for r in runs]
        res = consistency_from_parts(runs_findings, mv.get(it + sep + mo, NO_METRIC))
        pack_id, task_id = task_of[it]
        out.append({
            "pack_id": pack_id, "task_id": task_id, "item_id": it, "system_id": mo, "n_repetitions": len(runs),
            "finding_stability": res.finding_stability.value, "n_unique_findings": res.finding_stability.n,
            "finding_stability_reason": res.finding_stability.reason,
            "ranking_stability": res.ranking_stability.value, "n_repetition_pairs_ranked": res.ranking_stability.n,
            "ranking_stability_reason": res.ranking_stability.reason,
            "metric_variance": res.metric_variance.value, "n_metric_keys": res.metric_variance.n,
            "metric_variance_reason": res.metric_variance.reason,
            "consistency": None if res.consistency is None else
            Decimal(res.consistency).quantize(Decimal("1e-12"), rounding=ROUND_HALF_UP),
            "sub_metrics_used": res.weights_used,
            "consistency_reason": res.reason,
        })
    schema = pa.schema([
        ("pack_id", pa.string()), ("task_id", pa.string()), ("item_id", pa.string()), ("system_id", pa.string()),
        ("n_repetitions", pa.int64()), ("finding_stability", pa.float64()), ("n_unique_findings", pa.int64()),
        ("finding_stability_reason", pa.string()), ("ranking_stability", pa.float64()),
        ("n_repetition_pairs_ranked", pa.int64()), ("ranking_stability_reason", pa.string()),
        ("metric_variance", pa.float64()), ("n_metric_keys", pa.int64()), ("metric_variance_reason", pa.string()),
        ("consistency", pa.decimal128(18, 12)), ("sub_metrics_used", pa.string()), ("consistency_reason", pa.string()),
    ])
    return pa.Table.from_pylist(out, schema=schema)
