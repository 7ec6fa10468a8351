"""Every gold fact x response scored under each answer rule of int_grade__answer_rules that is computed in Python
(TAT-QA official EM / F1, Faithful-CoT GSM8K): one row per fact x response x rule. The rules are
evalhouse.rules (documented there, with their sources); the house rules stay in fct_grade__fact_checks (SQL).
"""


def model(dbt, session):
    dbt.config(materialized="table")
    import pandas as pd

    from evalhouse.rules import apply_rule

    inputs = dbt.ref("int_grade__answer_rule_inputs").df()
    rows = []
    for rec in inputs.to_dict("records"):
        rec = {k: (None if (v is None or (isinstance(v, float) and v != v)) else v) for k, v in rec.items()}
        out = apply_rule(rec["answer_rule"], rec)
        rows.append({
            "suite": rec["suite"], "response_id": rec["response_id"], "item_id": rec["item_id"],
            "system_id": rec["system_id"],
            "fact_kind": {"numeric_fact": "numeric", "string_fact": "string",
                          "span_list_fact": "span_list"}[rec["gold_kind"]],
            "fact_key": rec["fact_key"], "answer_type": rec["answer_type"], "answer_rule": rec["answer_rule"],
            "gold_value": rec["gold_value"], "reply_text": rec["reply_text"], "reply_parsed": out.reply_parsed,
            "score": float(out.score), "passed": bool(out.correct), "rule_status": out.status,
        })
    columns = ["suite", "response_id", "item_id", "system_id", "fact_kind", "fact_key", "answer_type",
               "answer_rule", "gold_value", "reply_text", "reply_parsed", "score", "passed", "rule_status"]
    df = pd.DataFrame(rows, columns=columns)
    for col in columns:
        if col == "score":
            df[col] = df[col].astype("float64")
        elif col == "passed":
            df[col] = df[col].astype("bool")
        else:
            df[col] = df[col].astype("string")
    return df
