"""Internal regression score of C (category agent) cards: evalhouse.decisions.regression.evaluate. One row per
recorded C card. Kept apart from the cross-group comparison: A, B and D are never scored with it."""


def model(dbt, session):
    dbt.config(materialized="table")
    import pandas as pd

    from evalhouse.decisions.cards import load_card
    from evalhouse.decisions.regression import RegressionRules, evaluate

    rules = RegressionRules.from_rows(dbt.ref("int_decisions__protocol_rules").project(
        "rule_kind, rule_key, rule_value").fetchall())
    cards = dbt.ref("int_decisions__result_cards").filter("group_arm = 'C'").project(
        "experiment_id, group_id, card_position, case_id, attempt_id, card_json").fetchall()
    dims = ["protocol_completeness", "deterministic_evidence", "financial_fields", "decision_thresholds",
            "human_decision_rights", "uncertainty", "reviewability", "raw_total", "total"]
    rows = []
    for exp, group, pos, case_id, attempt, card_json in cards:
        res = evaluate(load_card(card_json) if card_json else None, case_id, rules)
        rows.append({"experiment_id": exp, "group_id": group, "card_position": int(pos), "case_id": case_id,
                     "attempt_id": attempt, **{d: str(res[d]) for d in dims}, "capped": res["capped"],
                     "cap_reasons": res["cap_reasons"], "threshold_problems": res["threshold_problems"]})
    columns = ["experiment_id", "group_id", "card_position", "case_id", "attempt_id", *dims, "capped",
               "cap_reasons", "threshold_problems"]
    frame = pd.DataFrame(rows, columns=columns)
    text = [c for c in columns if c not in ("card_position", "capped")]
    return frame.astype({**{c: "string" for c in text}, "card_position": "int64", "capped": "bool"})
