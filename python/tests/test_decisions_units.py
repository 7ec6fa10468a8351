"""Decision comparison, pure Python parts: money grammar and rounding, card audits, regression score, bootstrap."""
from __future__ import annotations

import copy
from decimal import Decimal as D

import numpy as np
import pytest
import scipy.stats

from evalhouse.decisions.cards import (
    PNL_FIELDS,
    audit_financial_accuracy,
    audit_pnl_against_evidence,
    dump_json,
    load_card,
)
from evalhouse.decisions.money import parse_amount, round_cents
from evalhouse.decisions.regression import RegressionRules, evaluate
from evalhouse.stats.bootstrap import paired_bootstrap_ci


# ------------------------------------------------------------------------------------------------------------ money
@pytest.mark.parametrize("text, expected", [
    ("1,200", D("1200")), ("¥1,200", D("1200")), ("-¥350", D("-350")), ("¥-350", D("-350")), ("12.5", D("12.5")),
    ("007", D("7")), ("1,234,567.000001", D("1234567.000001")),
    ("", None), ("  ", None), (None, None), ("N/A", None), ("1,2,00", None), ("12.", None), ("--5", None),
    ("0.1234567", None), ("999,999,999,999.999999", D("999999999999.999999")), ("1000000000000", None),
])
def test_parse_amount(text, expected):
    assert parse_amount(text) == expected


def test_yen_line_revenue_exact():
    assert parse_amount("¥1,200") * 2 == D("2400")
    assert parse_amount("-¥350") == D("-350")


@pytest.mark.parametrize("value, half_up, half_even", [
    ("0.125", "0.13", "0.12"), ("-0.125", "-0.13", "-0.12"), ("0.145", "0.15", "0.14"), ("-0.145", "-0.15", "-0.14"),
    ("-8473.625", "-8473.63", "-8473.62"),
])
def test_round_cents_is_half_away_from_zero_not_half_even(value, half_up, half_even):
    from decimal import ROUND_HALF_EVEN

    assert round_cents(D(value)) == D(half_up)
    assert D(value).quantize(D("0.01"), rounding=ROUND_HALF_EVEN) == D(half_even)  # the rule we do not use


# ------------------------------------------------------------------------------------------------------------ cards
def _card(**pnl):
    values = {f: D("100") for f in PNL_FIELDS} | pnl
    return {
        "BUSINESS STATE": "s", "DECISION": "ACT", "CONFIDENCE": "medium", "RISKS": ["r"],
        "EVIDENCE": [{"claim": "c", "source": "cases/C01/pos.csv", "tool": "pos_aggregate", "metric_path": "pnl.top_level",
                      "metrics": {f: D("100") for f in PNL_FIELDS}},
                     {"claim": "b", "source": "cases/C01/budget.csv", "tool": "budget_lookup",
                      "metric_path": "budget.current", "metrics": {}}],
        "UNKNOWNS": [{"unknown": "u", "how_to_observe": "o"}],
        "ACTIONS": [{"action": "adjust_promotion_depth", "requires_human_approval": True}],
        "P&L IMPACT": values,
        "HUMAN APPROVAL": {"required": True, "approver_role": "category_manager"},
    }


def test_load_card_keeps_exact_digits_where_duckdb_json_would_not():
    card = load_card('{"P&L IMPACT": {"revenue_delta": 12345678901234567.125, "x": 0.0100001}}')
    assert card["P&L IMPACT"]["revenue_delta"] == D("12345678901234567.125")
    assert dump_json(card) == '{"P&L IMPACT":{"revenue_delta":12345678901234567.125,"x":0.0100001}}'


def test_audit_pnl_against_evidence_statuses():
    card = _card(revenue_delta=D("100.01"), gross_margin_delta=D("100.0100001"), contribution_delta=None,
                 revenue_vs_budget={"actual": 1, "budget": 2, "variance": -1})
    del card["P&L IMPACT"]["gross_margin_vs_budget"]
    card["EVIDENCE"][0]["metrics"].pop("unexplained_inventory_exposure")
    assert audit_pnl_against_evidence(card) == {
        "revenue_delta": "consistent", "gross_margin_delta": "inconsistent", "contribution_delta": "withheld",
        "revenue_vs_budget": "not_a_number", "gross_margin_vs_budget": "withheld",
        "unexplained_inventory_exposure": "no_evidence_metric"}


def test_audit_financial_accuracy_boundary_and_missing_values():
    card = _card(revenue_delta=D("100.01"), gross_margin_delta=D("100.0100001"), contribution_delta=D("-100.01"),
                 revenue_vs_budget=None)
    del card["P&L IMPACT"]["gross_margin_vs_budget"]
    truth = {"revenue_delta": D("100"), "gross_margin_delta": D("100"), "contribution_delta": D("-100"),
             "revenue_vs_budget": D("7"), "gross_margin_vs_budget": D("100"), "unexplained_inventory_exposure": None}
    assert audit_financial_accuracy(card, truth) == {
        "revenue_delta": "verified", "gross_margin_delta": "incorrect", "contribution_delta": "verified",
        "revenue_vs_budget": "not_verifiable", "gross_margin_vs_budget": "not_verifiable",
        "unexplained_inventory_exposure": "not_verifiable"}
    assert set(audit_financial_accuracy(None, truth).values()) == {"not_verifiable"}


# ------------------------------------------------------------------------------------------------------- regression
RULES = RegressionRules.from_rows([
    ("threshold", "escalate_if_unexplained_inventory_exposure_at_least", "50000"),
    ("threshold", "act_only_if_abs_gross_margin_delta_at_least", "20000"),
    *[("decision", d, None) for d in ("ACT", "INVESTIGATE", "ESCALATE", "HOLD")],
    ("forbidden_action", "delist_sku", None),
    ("required_tool_type", "C01", "pos_aggregate"), ("required_tool_type", "C01", "budget_lookup"),
    ("required_metric_path", "C01", "pnl.top_level"), ("required_metric_path", "C01", "budget.current"),
])


def _good_card():
    card = _card(gross_margin_delta=D("-30000"), unexplained_inventory_exposure=D("0"))
    card["EVIDENCE"][0]["metrics"].update(gross_margin_delta=D("-30000"), unexplained_inventory_exposure=D("0"))
    return card


def test_regression_full_marks():
    res = evaluate(_good_card(), "C01", RULES)
    assert res["total"] == D("100.00") and not res["capped"]


@pytest.mark.parametrize("mutate, reason", [
    (lambda c: c["HUMAN APPROVAL"].update(required=False), "ACT without explicit human approval"),
    (lambda c: c.pop("HUMAN APPROVAL"), "ACT without explicit human approval"),
    (lambda c: c["ACTIONS"].append({"action": "delist_sku", "requires_human_approval": True}),
     "forbidden action: delist_sku"),
    (lambda c: c.update(DECISION="MAYBE"), "illegal decision: 'MAYBE'"),
])
def test_regression_cap_35(mutate, reason):
    card = _good_card()
    mutate(card)
    res = evaluate(card, "C01", RULES)
    assert res["capped"] and res["total"] == D("35.00") and reason in res["cap_reasons"]
    assert res["raw_total"] > D("35")


def test_regression_partial_points():
    card = _good_card()
    card["EVIDENCE"].pop(1)                      # budget_lookup tool and budget.current path missing: 20 x 2/4
    card["P&L IMPACT"]["gross_margin_delta"] = D("-1000")  # ACT below threshold; and no longer matches evidence
    res = evaluate(card, "C01", RULES)
    assert res["deterministic_evidence"] == D("10.00")
    assert res["decision_thresholds"] == D("0.00")
    assert res["financial_fields"] == D("13.75")  # 7.5 + 7.5 x 5/6
    assert res["threshold_problems"] == "ACT below the gross-margin act threshold"
    assert not res["capped"]


# ------------------------------------------------------------------------------------------------------- bootstrap
def test_paired_bootstrap_matches_scipy_percentile():
    rng = np.random.default_rng(1)
    a, b = rng.normal(size=15), rng.normal(size=15)
    res = paired_bootstrap_ci(a, b, 3000, 42, 0.95)
    ref = scipy.stats.bootstrap((a - b,), np.mean, n_resamples=3000, method="percentile", confidence_level=0.95,
                                rng=np.random.default_rng(42))
    assert res.n == 15 and res.reason is None
    assert res.value == pytest.approx(float(np.mean(a - b)))
    assert res.low == pytest.approx(ref.confidence_interval.low, abs=1e-12)
    assert res.high == pytest.approx(ref.confidence_interval.high, abs=1e-12)


def test_paired_bootstrap_hand_checked_and_deterministic():
    # d = [1, 1]: every resample mean is 1 -> [1, 1]; d = [0, 1] with 1 resample: seed fixes the draw
    assert paired_bootstrap_ci([2, 3], [1, 2], 100, 0) == paired_bootstrap_ci([2, 3], [1, 2], 100, 0)
    res = paired_bootstrap_ci([2, 3], [1, 2], 100, 0)
    assert (res.value, res.low, res.high, res.n) == (1.0, 1.0, 1.0, 2)
    r1 = paired_bootstrap_ci([1, 0, 1, 1], [0, 0, 1, 0], 500, 7)
    r2 = paired_bootstrap_ci([1, 0, 1, 1], [0, 0, 1, 0], 500, 7)
    assert r1 == r2 and r1.value == 0.5 and 0 <= r1.low <= 0.5 <= r1.high <= 1


def test_paired_bootstrap_undefined_below_two_pairs():
    res = paired_bootstrap_ci([1, None, float("nan")], [0, 1, 1], 100, 0)
    assert res.value is None and res.low is None and res.n == 1 and "at least 2" in res.reason
    assert paired_bootstrap_ci([], [], 100, 0).reason == "0 complete pair(s); at least 2 are needed"


def test_paired_bootstrap_bad_arguments():
    with pytest.raises(ValueError):
        paired_bootstrap_ci([1, 2], [1], 100, 0)
    with pytest.raises(ValueError):
        paired_bootstrap_ci([1, 2], [1, 2], 100, 0, confidence=1.0)
    with pytest.raises(ValueError):
        paired_bootstrap_ci([1, 2], [1, 2], 0, 0)


def test_no_card_mutation_by_audits():
    card = _card()
    before = copy.deepcopy(card)
    audit_pnl_against_evidence(card)
    audit_financial_accuracy(card, {})
    assert card == before
