"""Per recorded card x P&L field: audit_pnl_against_evidence (card vs its own EVIDENCE[].metrics, internal
consistency only) and audit_financial_accuracy (card vs the exact SQL recomputation: verified / incorrect /
not_verifiable; a missing value is never correct). Both from evalhouse.decisions.cards."""


def model(dbt, session):
    dbt.config(materialized="table")
    from decimal import Decimal

    import pandas as pd

    from evalhouse.decisions.cards import PNL_FIELDS, audit_financial_accuracy, audit_pnl_against_evidence, load_card

    cards = dbt.ref("int_decisions__result_cards").project(
        "experiment_id, group_id, group_arm, card_position, case_id, card_json").fetchall()
    # exact values as text: .df() would turn DECIMAL into float64
    truth_rows = dbt.ref("fct_decisions__pnl_recomputed").project(
        "case_id, field_name, cast(recomputed_value as varchar)").fetchall()
    truth: dict[str, dict[str, Decimal | None]] = {}
    for case_id, field, value in truth_rows:
        truth.setdefault(case_id, {})[field] = Decimal(value) if value is not None else None
    rows = []
    for exp, group, arm, pos, case_id, card_json in cards:
        card = load_card(card_json) if card_json else None
        internal = audit_pnl_against_evidence(card)
        accuracy = audit_financial_accuracy(card, truth.get(case_id, {}))
        for field in PNL_FIELDS:
            rows.append({"experiment_id": exp, "group_id": group, "group_arm": arm, "card_position": int(pos),
                         "case_id": case_id, "field_name": field, "pnl_vs_evidence": internal[field],
                         "financial_accuracy": accuracy[field]})
    columns = ["experiment_id", "group_id", "group_arm", "card_position", "case_id", "field_name",
               "pnl_vs_evidence", "financial_accuracy"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype({c: "string" for c in columns if c != "card_position"}).astype({"card_position": "int64"})
