"""Every gold fact x response scored under each answer rule of int_grade__answer_rules that is computed in Python
(TAT-QA official EM / F1, Faithful-CoT GSM8K): one row per fact x response x rule. The rules are
evalhouse.rules (documented there, with their sources); the house rules stay in fct_grade__fact_checks (SQL).

A rule's outcome depends only on the rule and the fields apply_rule reads, so each distinct (rule, fields) is
scored once (the bundled packs repeat the same gold x reply under many responses: ~21k distinct of ~48k rows).
"""


def model(dbt, session):
    dbt.config(materialized="table")
    import math

    import pandas as pd

    from evalhouse.rules import apply_rule

    # what apply_rule reads (see its docstring), and what the mart carries
    rule_fields = ["answer_rule", "gold_kind", "gold_value", "gold_json", "answer_type", "gold_scale", "reply_text",
                   "reply_json", "reply_scale", "abs_tol", "rel_tol"]
    keys = ["suite", "response_id", "item_id", "system_id", "fact_key"]
    # the tolerances as doubles, as .df() gave them before
    projection = ", ".join(keys + [f"cast({c} as double) as {c}" if c in ("abs_tol", "rel_tol") else c
                                   for c in rule_fields])
    table = dbt.ref("int_grade__answer_rule_inputs").project(projection).arrow()
    if hasattr(table, "read_all"):  # duckdb >= 1.4 returns a RecordBatchReader
        table = table.read_all()
    data = {name: table.column(name).to_pylist() for name in table.column_names}
    for col in ("abs_tol", "rel_tol"):
        data[col] = [None if (v is None or (isinstance(v, float) and math.isnan(v))) else v for v in data[col]]

    outcomes: dict[tuple, object] = {}
    reply_parsed, score, passed, rule_status = [], [], [], []
    for values in zip(*(data[c] for c in rule_fields)):
        out = outcomes.get(values)
        if out is None:
            rec = dict(zip(rule_fields, values))
            out = outcomes[values] = apply_rule(rec["answer_rule"], rec)
        reply_parsed.append(out.reply_parsed)
        score.append(float(out.score))
        passed.append(bool(out.correct))
        rule_status.append(out.status)

    fact_kind = {"numeric_fact": "numeric", "string_fact": "string", "span_list_fact": "span_list"}
    columns = {
        "suite": data["suite"], "response_id": data["response_id"], "item_id": data["item_id"],
        "system_id": data["system_id"], "fact_kind": [fact_kind[k] for k in data["gold_kind"]],
        "fact_key": data["fact_key"], "answer_type": data["answer_type"], "answer_rule": data["answer_rule"],
        "gold_value": data["gold_value"], "reply_text": data["reply_text"], "reply_parsed": reply_parsed,
        "score": score, "passed": passed, "rule_status": rule_status,
    }
    df = pd.DataFrame({
        col: pd.Series(values, dtype="float64" if col == "score" else "bool" if col == "passed" else "string")
        for col, values in columns.items()})
    return df
