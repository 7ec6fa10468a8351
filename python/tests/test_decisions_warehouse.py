"""Decision comparison marts, read from the published warehouse (make test builds it before pytest)."""
from __future__ import annotations

import json
import re
from decimal import Decimal as D
from pathlib import Path

import pytest

from evalhouse.decisions import casepack, uci
from evalhouse.decisions.reference import case_reference
from evalhouse.stats.bootstrap import paired_bootstrap_ci
from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

REPO = Path(__file__).resolve().parents[2]
PACK = REPO / "data" / "decisions" / "pack"


@pytest.fixture(scope="module")
def con():
    try:
        c = connect_readonly()
    except WarehouseMissing as exc:
        pytest.skip(str(exc))
    yield c
    c.close()


def rows(con, sql, *params):
    return con.execute(sql, list(params)).fetchall()


def test_sql_recompute_equals_python_decimal_reference(con):
    got = {(c, f): (v, s) for c, f, v, s in rows(con, "select case_id, field_name, recomputed_value, recompute_status "
                                                      "from fct_decisions__pnl_recomputed")}
    assert len(got) == 11 * 6
    for cid in casepack.CORE_CASES:
        ref = case_reference(PACK / "cases" / cid, casepack.PERIODS)
        for field, value in ref.values.items():
            assert got[(cid, field)] == (value, "ok" if ref.source_valid else "invalid_raw_rows"), (cid, field)
    r01 = uci.reference_revenue(PACK / "cases" / "R01" / "pos.parquet")
    assert got[("R01", "revenue_delta")] == (D("338429.34"), "ok") == (r01["revenue_delta"], "ok")
    assert got[("R01", "gross_margin_delta")] == (None, "no_cost_in_source")
    assert got[("R01", "unexplained_inventory_exposure")] == (None, "no_inventory_in_source")


def test_money_columns_are_decimal_and_no_double_on_the_pnl_path(con):
    types = dict(rows(con, "select table_name || '.' || column_name, data_type from information_schema.columns "
                           "where table_name in ('fct_decisions__pnl_recomputed', 'int_decisions__period_totals', "
                           "'fct_decisions__financial_verdicts', 'stg_decisions__pos_rows')"))
    for col in ("fct_decisions__pnl_recomputed.recomputed_value", "int_decisions__period_totals.revenue",
                "int_decisions__period_totals.contribution", "fct_decisions__financial_verdicts.claimed_value",
                "fct_decisions__financial_verdicts.abs_difference", "stg_decisions__pos_rows.unit_price",
                "stg_decisions__pos_rows.quantity"):
        assert types[col].startswith("DECIMAL(38,"), (col, types[col])
    assert not [c for c, t in types.items() if t in ("DOUBLE", "FLOAT", "REAL")]
    compiled = REPO / "target" / "compiled" / "evalhouse" / "models"
    for name in ("staging/decisions/base/base_decisions__pos.sql", "staging/decisions/stg_decisions__pos_rows.sql",
                 "intermediate/decisions/int_decisions__period_totals.sql",
                 "intermediate/decisions/int_decisions__pos_aggregates.sql",
                 "marts/decisions/fct_decisions__pnl_recomputed.sql", "marts/decisions/fct_decisions__financial_verdicts.sql"):
        sql = re.sub(r"--[^\n]*", "", (compiled / name).read_text(encoding="utf-8").lower())
        assert not re.search(r"\b(double|float|real|avg)\b", sql), name
        assert "/" not in re.sub(r"'[^']*'", "''", sql), f"{name}: a division (DuckDB's / returns DOUBLE)"


def test_uci_quirk_counts_match_the_source_description(con):
    (n, merch, nonmerch, zero, adj, dups, cancel) = rows(
        con, "select n_lines, merchandise_revenue, non_merchandise_value_excluded, n_zero_price_lines, "
             "n_stock_adjustment_lines, n_exact_duplicate_repeats, n_cancellation_lines "
             "from fct_decisions__uci_quirks where period = 'all'")[0]
    assert (n, zero, adj, dups, cancel) == (198374, 662, 377, 2574, 3167)
    assert merch + nonmerch == D("3589151.172")  # SOURCE.md's net total of the 13 weeks


def verdict(con, exp, group, case, field):
    return rows(con, "select verdict, abs_difference, near_relative_1pct from fct_decisions__financial_verdicts "
                     "where experiment_id = ? and group_id = ? and case_id = ? and field_name = ?",
                exp, group, case, field)[0]


@pytest.mark.parametrize("group, case, field, expected", [
    ("A_dashboard_human", "C02", "revenue_delta", ("verified", D("0.01"), False)),       # the 0.01 boundary
    ("A_dashboard_human", "C01", "revenue_delta", ("wrong", D("0.0100001"), True)),      # just past it; within 1%
    ("A_dashboard_human", "C03", "gross_margin_delta", ("withheld", None, False)),
    ("A_dashboard_human", "C07", "revenue_delta", ("invalid_source", None, False)),
    ("B_frontier_direct", "C07", "revenue_delta", ("unsupported_financial_claim", None, False)),
    ("B_frontier_direct", "R01", "revenue_delta", ("verified", D("0"), False)),
    ("B_frontier_direct", "R01", "gross_margin_delta", ("unsupported_financial_claim", None, False)),
    ("B_frontier_direct", "R01", "contribution_delta", ("invalid_source", None, False)),
    ("B_frontier_direct", "C05", "revenue_vs_budget", ("wrong", D("1200"), False)),
    # a protocol-invalid B card: even its correct numbers do not enter verified / wrong
    ("B_frontier_direct", "C04", "revenue_delta", ("protocol_invalid", D("0"), False)),
])
def test_example_verdict(con, group, case, field, expected):
    assert verdict(con, "exp01_example", group, case, field) == expected


def test_public_protocol_check(con):
    got = {c: (s, p) for c, s, p in rows(con, "select case_id, protocol_status, problems from fct_decisions__protocol_check "
                                             "where experiment_id = 'exp01_example' and group_id = 'B_frontier_direct'")}
    assert got["C03"] == ("protocol_invalid", "missing_field:contribution_delta")
    assert got["C04"] == ("protocol_invalid", "budget_field_is_an_object:revenue_vs_budget{actual,budget,variance}")
    assert got["C06"] == ("protocol_invalid", "target_metrics_without_declared_scope")
    assert got["C09"] == ("valid", None)  # target_metrics with its own scope is fine
    assert {s for s, in rows(con, "select distinct protocol_status from fct_decisions__protocol_check "
                                  "where group_arm = 'C'")} == {"not_checked"}


def comparison(con, exp, group):
    cur = con.execute("select * from fct_decisions__group_comparison where experiment_id = ? and group_id = ?",
                      [exp, group])
    return dict(zip([d[0] for d in cur.description], cur.fetchone()))


def test_not_run_group_has_null_metrics_never_zero(con):
    d = comparison(con, "exp01_example", "D_human_agent")
    assert d["group_status"] == "not_run" and d["is_compared"] is False
    metric_cols = [k for k in d if k.endswith(("_complete", "_common")) or k.startswith("n_")]
    metric_cols.remove("n_compared_groups")
    assert len(metric_cols) > 15
    assert {k: d[k] for k in metric_cols} == {k: None for k in metric_cols}
    boot = rows(con, "select mean_difference, ci_low, ci_high, mean_difference_reason from fct_decisions__paired_bootstrap "
                     "where experiment_id = 'exp01_example' and contrast = 'C - D'")
    assert boot and all(r == (None, None, None, "group D did not run") for r in boot)


def test_partial_experiment_reports_only_the_common_subset(con):
    c = comparison(con, "exp01_example", "C_category_agent")
    a = comparison(con, "exp01_example", "A_dashboard_human")
    assert c["experiment_status"] == "partial" and c["group_status"] == "partial" and c["missing_cases"] == "C05"
    for g in (a, c):
        assert g["accepted_decision_agreement_complete"] is None and g["selective_non_hold_coverage_complete"] is None
        assert g["n_common_cases"] == 9
    # A on the 9 common cases (C05 out): 8 accepted (C04 HOLD is not), coverage 5 of 7 non-HOLD cases
    assert a["accepted_decision_agreement_common"] == D("0.888889")
    assert a["selective_non_hold_coverage_common"] == D("0.714286")
    segments = rows(con, "select attempt_segments from fct_decisions__missing_cases "
                         "where experiment_id = 'exp01_example' and group_id = 'C_category_agent' and case_id = 'C05'")
    assert segments == [("001:interrupted(failed); 002:preflight_failed_no_case_calls(no case dispatched); "
                         "003:execution_failed(failed)",)]


def test_cards_report_their_attempt(con):
    got = dict((c, (a, s)) for c, a, s in rows(
        con, "select case_id, attempt_id, attempt_status from fct_decisions__card_outcomes "
             "where experiment_id = 'exp01_example' and group_id = 'C_category_agent' and case_status = 'recorded'"))
    assert got["C01"] == ("001", "interrupted") and got["C06"] == ("003", "execution_failed")
    assert rows(con, "select attempt_status from fct_decisions__attempts where experiment_id = 'exp01_example' "
                     "and attempt_id = '005'") == [("setup_failed",)]
    # a resume that re-dispatched an already succeeded pair (how v2's duplicate arose) is counted
    assert rows(con, "select experiment_id, attempt_id, n_redispatched_after_success from fct_decisions__attempts "
                     "where n_redispatched_after_success > 0") == [("exp04_duplicates", "002", 1)]


def test_duplicated_case_is_reported_and_excluded_from_pairs(con):
    v2 = comparison(con, "exp04_duplicates", "v2")
    assert v2["group_status"] == "duplicate_cases" and v2["duplicated_cases"] == "C01"
    assert v2["experiment_status"] == "partial" and v2["accepted_decision_agreement_complete"] is None
    assert v2["n_common_cases"] == 9
    assert rows(con, "select group_id, case_status, in_common_subset, decision from fct_decisions__card_outcomes "
                     "where experiment_id = 'exp04_duplicates' and case_id = 'C01' order by group_id") == [
        ("A_dashboard_human", "recorded", False, "ACT"), ("v2", "duplicated", False, None)]
    assert rows(con, "select n_cards, n_distinct_decisions from fct_decisions__missing_cases "
                     "where experiment_id = 'exp04_duplicates' and group_id = 'v2'") == [(2, 2)]


def test_always_hold_gets_zero_coverage(con):
    h = comparison(con, "exp03_always_hold", "always_hold")
    assert h["experiment_status"] == "complete"
    assert h["selective_non_hold_coverage_complete"] == D("0")
    assert h["n_golden_non_hold_complete"] == 8
    assert h["accepted_decision_agreement_complete"] == D("0.3")  # C03, C08 (HOLD accepted), C09


def test_complete_experiment_metrics_and_bootstrap(con):
    golden = json.loads((PACK / "evaluation" / "golden.json").read_text(encoding="utf-8"))
    dec = {}
    for g in ("C_category_agent", "D_human_agent", "A_dashboard_human"):
        doc = json.loads((REPO / f"data/decisions/results/exp02_complete/{g}_results.json").read_text(encoding="utf-8"))
        dec[g[0]] = {e["case_id"]: e["card"]["DECISION"] for e in doc["cards"]}
    agree = {arm: [int(dec[arm][c] in golden[c]["accepted_decisions"]) for c in casepack.CORE_CASES] for arm in dec}
    assert sum(agree["D"]) == 9 and sum(agree["C"]) == 8
    assert comparison(con, "exp02_complete", "D_human_agent")["accepted_decision_agreement_complete"] == D("0.9")
    assert comparison(con, "exp02_complete", "C_category_agent")["selective_non_hold_coverage_complete"] == D("0.875")
    assert comparison(con, "exp02_complete", "B_frontier_direct")["unsafe_act_count_complete"] == 0
    for left in ("C", "A"):
        expected = paired_bootstrap_ci(agree[left], agree["D"], 10000, 20240930, 0.95)
        got = rows(con, "select n_pairs, mean_difference, ci_low, ci_high from fct_decisions__paired_bootstrap "
                        "where experiment_id = 'exp02_complete' and contrast = ? and metric = 'accepted_decision_agreement'",
                   f"{left} - D")[0]
        assert got == (10, expected.value, expected.low, expected.high)
    assert rows(con, "select mean_difference, ci_low, ci_high from fct_decisions__paired_bootstrap where experiment_id "
                     "= 'exp02_complete' and contrast = 'C - D' and metric = 'accepted_decision_agreement'") == [
        (pytest.approx(-0.1), pytest.approx(-0.3), pytest.approx(0.0))]


def test_d_keeps_the_agent_version_and_the_reason(con):
    got = rows(con, "select case_id, agent_decision_before, decision, is_changed_from_agent, override_reason "
                    "from fct_decisions__card_outcomes where experiment_id = 'exp02_complete' "
                    "and group_id = 'D_human_agent' and is_changed_from_agent")
    assert got == [("C09", "INVESTIGATE", "HOLD", True,
                    "Within tolerance on every threshold; holding is the conservative choice.")]
    assert rows(con, "select count(*) from fct_decisions__card_outcomes where experiment_id = 'exp02_complete' "
                     "and group_id = 'D_human_agent' and agent_decision_before is null") == [(0,)]


def test_unsafe_act_counts(con):
    b = comparison(con, "exp01_example", "B_frontier_direct")
    c = comparison(con, "exp01_example", "C_category_agent")
    assert b["unsafe_act_count_common"] == 2  # ACT on C07 (invalid data) and C09 (ACT unsafe)
    assert c["unsafe_act_count_common"] == 1  # ACT on C04 without explicit human approval


def test_regression_scores_and_card_audits(con):
    got = dict((c, (t, cap, r)) for c, t, cap, r in rows(
        con, "select case_id, total, capped, cap_reasons from fct_decisions__regression_scores "
             "where experiment_id = 'exp01_example'"))
    assert got["C04"] == ("35.00", True, "ACT without explicit human approval")
    assert got["C08"] == ("35.00", True, "forbidden action: write_off_inventory")
    assert got["C01"] == ("100.00", False, None)
    assert rows(con, "select count(*) from fct_decisions__regression_scores where group_id not like 'C%'") == [(0,)]
    assert rows(con, "select pnl_vs_evidence, financial_accuracy from fct_decisions__card_audits where experiment_id "
                     "= 'exp01_example' and group_id = 'C_category_agent' and case_id = 'C06' "
                     "and field_name = 'gross_margin_delta'") == [("inconsistent", "incorrect")]


def test_quality_review_keeps_disagreement_side_by_side(con):
    cur = con.execute("select * from fct_decisions__quality_review")
    cols = [d[0] for d in cur.description]
    data = [dict(zip(cols, r)) for r in cur.fetchall()]
    assert not [c for c in cols if "mean" in c or "avg" in c]
    assert len(data) == 9 * 4 and all(r["n_reviewers"] == 2 for r in data)
    disagree = [r for r in data if r["reviewers_disagree"]]
    assert disagree and all(r["reviewer_1_score"] != r["reviewer_2_score"] for r in disagree)
    bad = [r for r in data if r["reviewer_2_score_problem"]]
    assert [(b["reviewer_2_score_text"], b["reviewer_2_score"], b["reviewer_2_score_problem"], b["reviewer_2_note"])
            for b in bad] == [("6", None, "out_of_range", "typo in the paper form")]


def test_only_the_comparison_reads_golden():
    manifest = json.loads((REPO / "target" / "manifest.json").read_text(encoding="utf-8"))
    children = manifest["child_map"]
    allowed = {f"model.evalhouse.{m}" for m in (
        "fct_decisions__card_outcomes", "fct_decisions__group_comparison", "fct_decisions__missing_cases",
        "fct_decisions__paired_bootstrap")}
    seen, todo = set(), ["model.evalhouse.int_decisions__golden_cases", "model.evalhouse.int_decisions__golden_accepted"]
    while todo:
        node = todo.pop()
        for child in children.get(node, []):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    models = {n for n in seen if n.startswith("model.")}
    assert models and models <= allowed, models - allowed


def test_no_significance_or_superiority_wording():
    pattern = re.compile(r"\b(significantly|statistically significant|superior(ity)?|outperform\w*|winner|"
                         r"better than|beats)\b", re.IGNORECASE)
    files = [*(REPO / "models").rglob("*decisions*"), *(REPO / "python/evalhouse/decisions").glob("*.py"),
             REPO / "python/evalhouse/cli/decisions.py", *(REPO / "data/decisions").rglob("*.md"),
             *(REPO / "data/decisions").rglob("*.json")]
    files = [f for f in files if f.is_file()]
    assert len(files) > 30
    for f in files:
        assert not pattern.search(f.read_text(encoding="utf-8")), f
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Decision comparison"):]
    assert not pattern.search(section)
