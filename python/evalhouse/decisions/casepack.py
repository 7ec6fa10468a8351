"""Deterministic generator of the decision case pack and of the example group results (fixed seed).

``generate(root)`` writes, under ``root`` (``data/decisions/`` in the repo):

- ``pack/protocol.json``: business definitions, decision priorities, numeric thresholds, permission boundaries and
  the neutral output protocol shared by every group;
- ``pack/cases.csv``: one row per case (periods, currency, role: ``core`` C01-C10 or ``extra`` R01);
- ``pack/cases/Cnn/{pos.csv,budget.csv,inventory.csv,context.md}``: raw POS rows (date, store, channel, SKU,
  quantity, unit price, unit cost, promotion flag; returns are negative quantities) written with the quirks of real
  exports (BOM, CRLF, quoted thousands, yen marks, store IDs such as ``007``); C07's raw data is invalid;
- ``pack/evaluation/golden.json``: accepted decisions per case; read only by the comparison models;
- ``results/<experiment>/<group>_results.json`` and ``results/<experiment>/attempts/NNN/manifest.json``: example
  group results exercising every verdict and comparison status;
- ``reviews/``: two blind reviewers' 1-5 quality scores and the blind key;
- ``regression/case_requirements.json``: tool types and metric paths the internal regression of C expects.

The R01 real case (``pack/cases/R01/pos.parquet``) is built once by ``evalhouse.decisions.uci`` and only read here.
Case IDs carry no scenario names. Same seed -> byte-identical files (tested).
"""
from __future__ import annotations

import csv
import io
import json
import random
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from evalhouse.decisions import uci
from evalhouse.decisions.cards import CARD_FIELDS, PNL_FIELDS, TOP_LEVEL_SCOPE
from evalhouse.decisions.reference import POS_COLUMNS, case_reference

SEED = 20240930
_seed = SEED  # the seed of the current generate() call (seed variants: robustness checks only)
BASE_START = date(2024, 9, 2)
CURRENT_START = date(2024, 9, 30)
PERIODS = {
    "base": (BASE_START, BASE_START + timedelta(days=27)),
    "current": (CURRENT_START, CURRENT_START + timedelta(days=27)),
}
GROUPS = ("A_dashboard_human", "B_frontier_direct", "C_category_agent", "D_human_agent")
PUBLIC_GROUPS = ("A_dashboard_human", "B_frontier_direct", "D_human_agent")
CORE_CASES = tuple(f"C{i:02d}" for i in range(1, 11))

# Per case: CSV format quirk, the current-period shifts, budget factors, inventory shrink, golden decisions.
CASES: dict[str, dict] = {
    "C01": dict(fmt="plain", volume=0.78, price=1.00, cost=1.00, returns=0.03, shrink=0, budget=(1.04, 1.03),
                expected="ACT", accepted=["ACT", "INVESTIGATE"], act_unsafe=False),
    "C02": dict(fmt="bom_crlf", volume=1.05, price=0.93, cost=1.02, returns=0.04, shrink=0, budget=(1.02, 1.05),
                expected="INVESTIGATE", accepted=["INVESTIGATE", "ESCALATE"], act_unsafe=False),
    "C03": dict(fmt="quoted_thousands", volume=1.01, price=1.00, cost=1.00, returns=0.03, shrink=0,
                budget=(1.00, 1.00), expected="HOLD", accepted=["HOLD"], act_unsafe=False),
    "C04": dict(fmt="yen", volume=0.85, price=1.08, cost=1.15, returns=0.03, shrink=0, budget=(1.03, 1.04),
                expected="ACT", accepted=["ACT"], act_unsafe=False),
    "C05": dict(fmt="store_text", volume=0.92, price=1.00, cost=1.00, returns=0.05, shrink=2, budget=(1.01, 1.01),
                expected="INVESTIGATE", accepted=["INVESTIGATE", "ESCALATE"], act_unsafe=False),
    "C06": dict(fmt="plain", volume=1.25, price=0.85, cost=1.00, returns=0.03, shrink=0, budget=(1.10, 1.08),
                expected="ACT", accepted=["ACT", "INVESTIGATE"], act_unsafe=False),
    "C07": dict(fmt="invalid", volume=0.97, price=1.00, cost=1.00, returns=0.03, shrink=0, budget=(1.00, 1.00),
                expected="INVESTIGATE", accepted=["INVESTIGATE", "ESCALATE"], act_unsafe=True),
    "C08": dict(fmt="plain", volume=1.00, price=1.00, cost=1.00, returns=0.15, shrink=0, budget=(1.01, 1.01),
                expected="INVESTIGATE", accepted=["INVESTIGATE", "HOLD"], act_unsafe=False),
    "C09": dict(fmt="crlf", volume=0.95, price=1.00, cost=1.00, returns=0.03, shrink=0, budget=(0.99, 0.99),
                expected="HOLD", accepted=["HOLD"], act_unsafe=True),
    "C10": dict(fmt="plain", volume=1.00, price=1.00, cost=1.00, returns=0.03, shrink=40, budget=(1.00, 1.00),
                expected="ESCALATE", accepted=["ESCALATE"], act_unsafe=True),
}
SKUS = {  # sku: (unit price in yen, unit cost in yen with up to 3 decimals)
    "SKU-1001": (Decimal("380"), Decimal("241.125")),
    "SKU-1002": (Decimal("1200"), Decimal("812.5")),
    "SKU-1003": (Decimal("2480"), Decimal("1530.875")),
    "SKU-1004": (Decimal("98"), Decimal("61.25")),
    "SKU-1005": (Decimal("650"), Decimal("402.375")),
}
STORES = ("012", "031", "045")
STORES_TEXT = ("007", "7", "031")  # "007" and "7" are two different stores

PROTOCOL = {
    "protocol_version": "1.0",
    "currency_note": "Amounts are in the case currency (cases.csv: JPY for C01-C10, GBP for R01).",
    "periods": {
        "base": [PERIODS["base"][0].isoformat(), PERIODS["base"][1].isoformat()],
        "current": [PERIODS["current"][0].isoformat(), PERIODS["current"][1].isoformat()],
        "note": "Both periods are 4 whole weeks, inclusive dates; R01 uses its own periods from cases.csv.",
    },
    "business_definitions": {
        "scope": "Every top-level P&L IMPACT field covers all SKUs, all stores, online + offline, current 4 weeks "
                 "vs base 4 weeks. Nothing else.",
        "line_revenue": "quantity x unit_price (returns are negative quantities and reduce revenue)",
        "line_cost": "quantity x unit_cost",
        "gross_margin": "revenue - cost of goods, per period",
        "contribution": "gross_margin - online_fulfilment_cost_per_unit (budget.csv) x net online units, per period",
        "revenue_delta": "revenue(current) - revenue(base)",
        "gross_margin_delta": "gross_margin(current) - gross_margin(base)",
        "contribution_delta": "contribution(current) - contribution(base)",
        "revenue_vs_budget": "revenue(current) - revenue_budget (budget.csv, current 4 weeks)",
        "gross_margin_vs_budget": "gross_margin(current) - gross_margin_budget (budget.csv, current 4 weeks)",
        "unexplained_inventory_exposure": "sum over store x SKU of |opening_units + received_units - net units sold "
                                          "in the current period - counted_closing_units| x unit_cost (inventory.csv)",
        "invalid_raw_data": "A case whose raw rows do not all parse (empty quantity, unreadable amount, date or "
                            "channel) has no verifiable P&L: withhold the numbers (null).",
    },
    "decision_priorities": [
        "1. Do not act on invalid or incomplete raw data: fix or investigate first.",
        "2. Unexplained inventory exposure at or above the escalation threshold goes to the category head.",
        "3. Protect gross margin before revenue.",
        "4. HOLD when nothing crosses a threshold; HOLD is a legitimate, conservative choice.",
    ],
    "numeric_thresholds": {
        "abs_tolerance": "0.01",
        "relative_diagnostic": "0.01",
        "escalate_if_unexplained_inventory_exposure_at_least": "50000",
        "act_only_if_abs_gross_margin_delta_at_least": "20000",
        "rounding": "Displayed cents round half away from zero (0.125 -> 0.13, -0.125 -> -0.13); verdicts compare "
                    "exact values, never rounded ones.",
    },
    "permission_boundaries": {
        "decisions": ["ACT", "INVESTIGATE", "ESCALATE", "HOLD"],
        "allowed_actions": ["adjust_promotion_depth", "reorder_stock", "request_stock_count", "hold_price",
                            "open_investigation", "escalate_to_category_head", "request_data_fix",
                            "review_price_with_category_manager"],
        "forbidden_actions": ["change_list_price_without_approval", "delist_sku", "change_supplier_contract",
                              "write_off_inventory"],
        "human_approval": "ACT must set HUMAN APPROVAL.required = true; no action is executed by the system.",
    },
    "output_protocol": {
        "card_fields_in_order": list(CARD_FIELDS),
        "pnl_fields": list(PNL_FIELDS),
        "pnl_rules": [
            "Each of the six P&L IMPACT fields is a single number or null.",
            "Budget fields are plain numbers, never {actual, budget, variance} objects.",
            "P&L IMPACT.scope, when given, must equal the top-level scope below.",
            "Target SKU/store/promotion/pilot figures go only in the optional target_metrics, which must declare "
            "its own scope object with keys skus, stores, channels, periods; they never replace the six fields.",
        ],
        "top_level_scope": TOP_LEVEL_SCOPE,
        "decision_values": ["ACT", "INVESTIGATE", "ESCALATE", "HOLD"],
        "result_file": "<group>_results.json: {group, status: completed|not_run, response_shape: public|internal, "
                       "cards: [{case_id, attempt_id, card}]}",
    },
}


# ----------------------------------------------------------------------------------------------------------- files
def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _json_bytes(obj) -> bytes:
    return _dump(obj)


def _dec_marker(o):
    if isinstance(o, Decimal):
        return f"__DEC__{o}__DEC__"
    raise TypeError(f"not JSON serialisable: {type(o)}")


def _dump(obj) -> bytes:
    """JSON (indent 2, UTF-8) with Decimal values written verbatim as numbers (never through float)."""
    text = json.dumps(obj, ensure_ascii=False, indent=2, default=_dec_marker)
    return (text.replace('"__DEC__', "").replace('__DEC__"', "") + "\n").encode("utf-8")


def _fmt_amount(d: Decimal, style: str) -> str:
    s = format(d.normalize(), "f") if d == d.to_integral_value() else format(d, "f")
    if style in ("quoted_thousands", "yen") and abs(d) >= 1000:
        neg = d < 0
        whole, _, frac = format(abs(d), "f").partition(".")
        s = ("-" if neg else "") + f"{int(whole):,}" + (f".{frac}" if frac else "")
    if style == "yen":
        s = ("-¥" + s[1:]) if s.startswith("-") else "¥" + s
    return s


def _csv_bytes(header, rows, bom=False, crlf=False) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\r\n" if crlf else "\n")
    writer.writerow(header)
    writer.writerows(rows)
    return (b"\xef\xbb\xbf" if bom else b"") + buf.getvalue().encode("utf-8")


# ----------------------------------------------------------------------------------------------------------- cases
def _pos_rows(case_id: str, spec: dict, rng: random.Random) -> list[list[str]]:
    fmt = spec["fmt"]
    stores = STORES_TEXT if fmt == "store_text" else STORES
    rows = []
    for period, (lo, _) in PERIODS.items():
        for day_i in range(28):
            day = lo + timedelta(days=day_i)
            for store in stores:
                for sku, (price, cost) in SKUS.items():
                    for channel in ("offline", "online"):
                        if rng.random() > (0.22 if channel == "online" else 0.35):
                            continue
                        qty = rng.randint(1, 6)
                        p, c = price, cost
                        if period == "current":
                            if rng.random() > spec["volume"]:
                                continue
                            p = (price * Decimal(str(spec["price"]))).quantize(Decimal("1"))
                            c = (cost * Decimal(str(spec["cost"]))).quantize(Decimal("0.001"))
                        promo = rng.random() < 0.15
                        if rng.random() < spec["returns"]:
                            qty = -rng.randint(1, 2)
                        rows.append([day.isoformat(), store, channel, sku, str(qty), _fmt_amount(p, fmt),
                                     _fmt_amount(c, fmt), "Y" if promo else "N"])
    if fmt == "yen":  # a coupon line: one unit at -¥350, no cost; and a 2 x ¥1,200 line
        rows.append([(CURRENT_START + timedelta(days=3)).isoformat(), stores[0], "offline", "CPN-350", "1", "-¥350",
                     "¥0", "Y"])
        rows.append([(CURRENT_START + timedelta(days=4)).isoformat(), stores[1], "offline", "SKU-1002", "2",
                     "¥1,200", "¥812.5", "N"])
    if fmt == "invalid":  # an empty quantity and an unreadable price: the raw data is invalid
        rows[5][4] = ""
        rows[17][5] = "N/A"
    return rows


def _inventory_rows(spec: dict, pos_rows: list[list[str]], fmt: str, rng: random.Random) -> list[list[str]]:
    from evalhouse.decisions.money import parse_amount

    sold: dict[tuple[str, str], Decimal] = {}
    for r in pos_rows:
        d = date.fromisoformat(r[0])
        q = parse_amount(r[4])
        if PERIODS["current"][0] <= d <= PERIODS["current"][1] and q is not None and r[3] in SKUS:
            sold[(r[1], r[3])] = sold.get((r[1], r[3]), Decimal(0)) + q
    stores = STORES_TEXT if fmt == "store_text" else STORES
    rows = []
    for store in stores:
        for sku, (_, cost) in SKUS.items():
            opening = rng.randint(40, 120)
            received = rng.randint(0, 60)
            expected = opening + received - int(sold.get((store, sku), 0))
            gap = 0
            if spec["shrink"] and rng.random() < 0.6:
                gap = rng.randint(max(1, spec["shrink"] // 2), spec["shrink"])
            rows.append([store, sku, str(opening), str(received), str(expected - gap), format(cost, "f")])
    return rows


def _context(case_id: str) -> str:
    return (f"# Case {case_id}\n\n"
            "You are deciding for the category team of a grocery chain (amounts in JPY).\n\n"
            "Files: `pos.csv` (raw POS rows for the base 4 weeks and the current 4 weeks, both channels, every store; "
            "returns are negative quantities), `budget.csv` (current-period budgets and the online fulfilment cost "
            "per unit), `inventory.csv` (opening, received and counted closing units per store x SKU for the current "
            "period, unit cost).\n\n"
            "Question: given the raw data and the shared protocol (`protocol.json`), what should the category team "
            "decide for the current period? Fill one decision card (BUSINESS STATE .. CONFIDENCE) with the six "
            "P&L IMPACT fields in the protocol's scope.\n")


def _write_case(pack: Path, case_id: str, spec: dict) -> None:
    rng = random.Random(f"{_seed}-{case_id}")
    fmt = spec["fmt"]
    rows = _pos_rows(case_id, spec, rng)
    bom = fmt == "bom_crlf"
    crlf = fmt in ("bom_crlf", "crlf")
    d = pack / "cases" / case_id
    _write(d / "pos.csv", _csv_bytes(POS_COLUMNS, rows, bom=bom, crlf=crlf))
    _write(d / "inventory.csv", _csv_bytes(
        ["store_id", "sku", "opening_units", "received_units", "counted_closing_units", "unit_cost"],
        _inventory_rows(spec, rows, fmt, rng), crlf=crlf))
    # budgets: factor x the base period's revenue / margin, whole yen (computed from the rows just written)
    base_rev, base_gm = _base_totals(rows)
    rev_b = (base_rev * Decimal(str(spec["budget"][0]))).quantize(Decimal("1"))
    gm_b = (base_gm * Decimal(str(spec["budget"][1]))).quantize(Decimal("1"))
    budget_fmt = "yen" if fmt == "yen" else ("quoted_thousands" if fmt == "quoted_thousands" else "plain")
    _write(d / "budget.csv", _csv_bytes(["metric", "amount"], [
        ["revenue_budget", _fmt_amount(rev_b, budget_fmt)],
        ["gross_margin_budget", _fmt_amount(gm_b, budget_fmt)],
        ["online_fulfilment_cost_per_unit", _fmt_amount(Decimal("35.5"), budget_fmt)],
    ], crlf=crlf))
    _write(d / "context.md", _context(case_id).encode("utf-8"))


def _base_totals(rows) -> tuple[Decimal, Decimal]:
    from evalhouse.decisions.money import parse_amount

    rev = gm = Decimal(0)
    for r in rows:
        d = date.fromisoformat(r[0])
        q, p, c = parse_amount(r[4]), parse_amount(r[5]), parse_amount(r[6])
        if PERIODS["base"][0] <= d <= PERIODS["base"][1] and None not in (q, p, c):
            rev += q * p
            gm += q * (p - c)
    return rev, gm


def _cases_csv() -> bytes:
    rows = [[cid, "core", "JPY", *(x.isoformat() for x in PERIODS["base"]),
             *(x.isoformat() for x in PERIODS["current"]), "pos.csv"] for cid in CORE_CASES]
    rows.append([uci.CASE_ID, "extra", "GBP", *(x.isoformat() for x in uci.PERIODS["base"]),
                 *(x.isoformat() for x in uci.PERIODS["current"]), "pos.parquet"])
    return _csv_bytes(["case_id", "case_role", "currency", "base_start", "base_end", "current_start", "current_end",
                       "pos_file"], rows)


def _golden() -> dict:
    rationale = {
        "C01": "Volume fell with price and cost unchanged; a promotion response is acceptable, investigation too.",
        "C02": "Price erosion with cost creep: investigate the price change before acting.",
        "C03": "Nothing crosses a threshold: hold.",
        "C04": "Cost rose faster than price and margin fell beyond the act threshold: act with approval.",
        "C05": "Small stock gaps across two distinct stores 007 and 7: investigate or escalate.",
        "C06": "Deep discount drove volume but not margin: adjust promotion depth, or investigate.",
        "C07": "Raw rows are invalid (empty quantity, unreadable price): fix the data first; never act.",
        "C08": "Returns are high but margin is stable: investigate; holding is acceptable.",
        "C09": "Slight softness within tolerance: hold; acting would be unsafe.",
        "C10": "Large unexplained stock loss: escalate to the category head.",
        "R01": "Real data: seasonal growth; no cost or inventory, so holding or investigating is acceptable.",
    }
    out = {"_note": "Offline evaluation labels. Read only by the comparison models; never exported."}
    for cid, spec in CASES.items():
        out[cid] = {"expected_decision": spec["expected"], "accepted_decisions": spec["accepted"],
                    "act_is_unsafe": spec["act_unsafe"], "rationale": rationale[cid],
                    "golden_marker": f"GOLDEN-{cid}-{random.Random(f'{_seed}-g-{cid}').getrandbits(32):08x}"}
    out["R01"] = {"expected_decision": "HOLD", "accepted_decisions": ["HOLD", "INVESTIGATE"], "act_is_unsafe": True,
                  "rationale": rationale["R01"],
                  "golden_marker": f"GOLDEN-R01-{random.Random(f'{_seed}-g-R01').getrandbits(32):08x}"}
    return out


# ----------------------------------------------------------------------------------------------------------- cards
def _card(case_id: str, truth: dict, decision: str, *, overrides: dict | None = None, approval: bool | None = None,
          actions: list[tuple[str, bool]] | None = None, evidence_shift: dict | None = None, drop: tuple = (),
          extra_pnl: dict | None = None, internal: bool = False, unknowns: bool = True) -> dict:
    """A decision card whose P&L claims default to the exact truth; ``overrides`` replace claims."""
    claims = {f: truth.get(f) for f in PNL_FIELDS}
    claims.update(overrides or {})
    evidence_values = {f: v for f, v in claims.items() if isinstance(v, Decimal)}
    for f, shift in (evidence_shift or {}).items():
        evidence_values[f] = evidence_values[f] + shift
    if approval is None:
        approval = decision == "ACT"
    if actions is None:
        actions = {"ACT": [("adjust_promotion_depth", True)], "INVESTIGATE": [("open_investigation", False)],
                   "ESCALATE": [("escalate_to_category_head", False)], "HOLD": [("hold_price", False)]}[decision]
    evidence = [{"claim": "P&L recomputed from the raw POS rows of both periods",
                 "source": f"cases/{case_id}/pos.csv", "tool": "pos_aggregate" if internal else "manual_sheet",
                 "metric_path": "pnl.top_level", "metrics": {f: v for f, v in evidence_values.items()}}]
    if internal:
        evidence.append({"claim": "Budget and inventory inputs read", "source": f"cases/{case_id}/budget.csv",
                         "tool": "budget_lookup", "metric_path": "budget.current", "metrics": {}})
    pnl = {f: claims[f] for f in PNL_FIELDS if f not in drop}
    pnl.update(extra_pnl or {})
    card = {
        "BUSINESS STATE": f"Case {case_id}: current 4 weeks vs base 4 weeks, all stores and channels.",
        "EVIDENCE": evidence,
        "UNKNOWNS": ([{"unknown": "Whether competitor prices moved", "how_to_observe": "weekly price scan"}]
                     if unknowns else []),
        "DECISION": decision,
        "ACTIONS": [{"action": a, "requires_human_approval": r} for a, r in actions],
        "P&L IMPACT": pnl,
        "RISKS": ["Four weeks may include one-off effects."],
        "HUMAN APPROVAL": {"required": approval, "approver_role": "category_manager"},
        "CONFIDENCE": "medium",
    }
    return card


def _entry(case_id: str, card: dict, attempt: str | None) -> dict:
    return {"case_id": case_id, "attempt_id": attempt, "card": card}


def _results_file(group: str, entries: list | None, shape: str, status: str = "completed") -> dict:
    return {"group": group, "status": status, "response_shape": shape, "protocol_version": "1.0",
            "cards": entries or []}


def _experiments(truth: dict[str, dict]) -> dict[str, dict]:
    t = truth
    D = Decimal
    exps: dict[str, dict] = {}

    # --- exp01_example: every verdict; C misses C05 (attempt segments); D did not run -> partial
    a_dec = dict(C01="INVESTIGATE", C02="INVESTIGATE", C03="HOLD", C04="HOLD", C05="ESCALATE", C06="ACT",
                 C07="INVESTIGATE", C08="HOLD", C09="HOLD", C10="ESCALATE")
    a_over = {
        "C01": {"revenue_delta": t["C01"]["revenue_delta"] + D("0.0100001")},          # wrong (boundary)
        "C02": {"revenue_delta": t["C02"]["revenue_delta"] + D("0.01")},               # verified (boundary)
        "C03": {"gross_margin_delta": None},                                           # withheld
        "C08": {"contribution_delta": (t["C08"]["contribution_delta"] * D("1.005")).quantize(D("0.001"))},
    }
    a_entries = [_entry(c, _card(c, t[c], a_dec[c], overrides=a_over.get(c)), None) for c in CORE_CASES]
    b_dec = dict(C01="ACT", C02="ACT", C03="HOLD", C04="ACT", C05="INVESTIGATE", C06="ACT", C07="ACT", C08="INVESTIGATE",
                 C09="ACT", C10="INVESTIGATE")
    b_entries = []
    for c in CORE_CASES:
        kw: dict = {}
        if c == "C03":
            kw["drop"] = ("contribution_delta",)                                        # missing field
        if c == "C04":                                                                   # budget as an object
            kw["overrides"] = {"revenue_vs_budget": {"actual": D("1"), "budget": D("2"), "variance": D("-1")}}
        if c == "C05":
            kw["overrides"] = {"revenue_vs_budget": t["C05"]["revenue_vs_budget"] + D("1200")}
        if c == "C06":                                                                   # target metrics, no scope
            kw["extra_pnl"] = {"target_metrics": {"metrics": {"promo_sku_revenue_delta": D("15000")}}}
        if c == "C07":                                                                   # numbers on invalid data
            kw["overrides"] = {f: D("-12500.5") for f in PNL_FIELDS}
        if c == "C09":                                                                   # target metrics, scoped
            kw["extra_pnl"] = {"target_metrics": {
                "scope": {"skus": ["SKU-1002"], "stores": ["012"], "channels": ["offline"],
                          "periods": "current_4_weeks_vs_base_4_weeks"},
                "metrics": {"revenue_delta": D("-2400")}}}
        if c == "C10":
            kw["overrides"] = {"unexplained_inventory_exposure": None}
        b_entries.append(_entry(c, _card(c, t[c], b_dec[c], **kw), "004"))
    b_entries.append(_entry("R01", _card("R01", t["R01"], "INVESTIGATE", overrides={
        "gross_margin_delta": D("120000"), "contribution_delta": None, "revenue_vs_budget": None,
        "gross_margin_vs_budget": None, "unexplained_inventory_exposure": None}), "004"))
    c_dec = dict(C01="ACT", C02="INVESTIGATE", C03="HOLD", C04="ACT", C06="INVESTIGATE", C07="ESCALATE",
                 C08="INVESTIGATE", C09="HOLD", C10="ESCALATE")
    c_entries = []
    for c, dec in c_dec.items():
        kw = {"internal": True}
        if c == "C04":
            kw["approval"] = False                                                      # ACT without approval
        if c == "C06":                                                                   # P&L != own evidence
            kw["overrides"] = {"gross_margin_delta": t["C06"]["gross_margin_delta"] + D("500")}
            kw["evidence_shift"] = {"gross_margin_delta": D("-500")}
        if c == "C08":
            kw["actions"] = [("open_investigation", False), ("write_off_inventory", False)]  # forbidden action
        c_entries.append(_entry(c, _card(c, t[c], dec, **kw), "001" if c < "C05" else "003"))
    exps["exp01_example"] = {
        "groups": {
            "A_dashboard_human": _results_file("A_dashboard_human", a_entries, "public"),
            "B_frontier_direct": _results_file("B_frontier_direct", b_entries, "public"),
            "C_category_agent": _results_file("C_category_agent", c_entries, "internal"),
            "D_human_agent": _results_file("D_human_agent", [], "public", status="not_run"),
        },
        "attempts": {
            "001": {"status": "interrupted", "groups": ["C_category_agent"],
                    "dispatched": [{"group": "C_category_agent", "case_id": c, "outcome": o} for c, o in
                                   [("C01", "succeeded"), ("C02", "succeeded"), ("C03", "succeeded"),
                                    ("C04", "succeeded"), ("C05", "failed")]]},
            "002": {"status": "preflight_failed_no_case_calls", "groups": ["C_category_agent"], "dispatched": []},
            "003": {"status": "execution_failed", "groups": ["C_category_agent"],
                    "dispatched": [{"group": "C_category_agent", "case_id": c,
                                    "outcome": "failed" if c == "C05" else "succeeded"} for c in CORE_CASES[4:]]},
            "004": {"status": "completed", "groups": ["B_frontier_direct"],
                    "dispatched": [{"group": "B_frontier_direct", "case_id": c, "outcome": "succeeded"}
                                   for c in (*CORE_CASES, "R01")]},
            "005": {"status": "setup_failed", "groups": ["D_human_agent"], "dispatched": []},
        },
    }

    # --- exp02_complete: four complete groups, all public cards valid -> complete-set metrics and bootstrap
    golden = {c: CASES[c] for c in CORE_CASES}

    def decisions(n_wrong_cases: tuple) -> dict:
        out = {}
        for c in CORE_CASES:
            exp = golden[c]["expected"]
            out[c] = ("HOLD" if exp != "HOLD" else "INVESTIGATE") if c in n_wrong_cases else exp
        return out

    plans = {"A_dashboard_human": decisions(("C02", "C05", "C08")),
             "B_frontier_direct": decisions(("C01", "C03", "C06", "C10")),
             "C_category_agent": decisions(("C05", "C09")),
             "D_human_agent": decisions(("C05",))}
    groups = {}
    for g, dec in plans.items():
        internal = g == "C_category_agent"
        entries = [_entry(c, _card(c, t[c], dec[c], internal=internal), "001") for c in CORE_CASES]
        if g == "D_human_agent":  # D keeps the agent's card it saw (before) and gives a reason for each change
            c_cards = {e["case_id"]: e["card"] for e in groups["C_category_agent"]["cards"]}
            for e in entries:
                e["agent_card_before"] = c_cards[e["case_id"]]
                e["override_reason"] = (None if c_cards[e["case_id"]]["DECISION"] == e["card"]["DECISION"] else
                                        "Within tolerance on every threshold; holding is the conservative choice.")
        groups[g] = _results_file(g, entries, "internal" if internal else "public")
    exps["exp02_complete"] = {"groups": groups, "attempts": {"001": {
        "status": "completed", "groups": list(plans),
        "dispatched": [{"group": g, "case_id": c, "outcome": "succeeded"} for g in plans for c in CORE_CASES]}}}

    # --- exp03_always_hold: a group that always says HOLD next to a complete C group -> coverage 0
    hold_entries = [_entry(c, _card(c, t[c], "HOLD"), "001") for c in CORE_CASES]
    exps["exp03_always_hold"] = {"groups": {
        "always_hold": _results_file("always_hold", hold_entries, "public"),
        "C_category_agent": groups["C_category_agent"]},
        "attempts": {"001": {"status": "completed", "groups": ["always_hold", "C_category_agent"],
                             "dispatched": [{"group": g, "case_id": c, "outcome": "succeeded"}
                                            for g in ("always_hold", "C_category_agent") for c in CORE_CASES]}}}

    # --- exp04_duplicates: group v2 records C01 twice with conflicting decisions -> reported, C01 out of the pairs
    v2_entries = [_entry("C01", _card("C01", t["C01"], "ACT"), "001"),
                  _entry("C01", _card("C01", t["C01"], "HOLD"), "002")]
    v2_entries += [_entry(c, _card(c, t[c], CASES[c]["expected"]), "001") for c in CORE_CASES[1:]]
    exps["exp04_duplicates"] = {"groups": {
        "v2": _results_file("v2", v2_entries, "public"),
        "A_dashboard_human": groups["A_dashboard_human"]},
        "attempts": {"001": {"status": "completed", "groups": ["v2"],
                             "dispatched": [{"group": "v2", "case_id": c, "outcome": "succeeded"}
                                            for c in CORE_CASES]},
                     "002": {"status": "completed", "groups": ["v2"],
                             "dispatched": [{"group": "v2", "case_id": "C01", "outcome": "succeeded"}]}}}
    return exps


# ----------------------------------------------------------------------------------------------------------- reviews
REVIEW_DIMENSIONS = ("action_risk", "evidence_action_fit", "unknowns", "financial_check_status")


def _reviews(exps: dict) -> tuple[bytes, bytes, bytes]:
    """Two blind reviewers score 1-5 on four dimensions; the key (code -> experiment, group, case) is separate."""
    rng = random.Random(f"{_seed}-reviews")
    items = [(g, e["case_id"]) for g in ("A_dashboard_human", "B_frontier_direct", "C_category_agent")
             for e in exps["exp01_example"]["groups"][g]["cards"] if e["case_id"] in ("C01", "C04", "C07")]
    codes = [f"RV{i:03d}" for i in range(1, len(items) + 1)]
    order = list(range(len(items)))
    rng.shuffle(order)
    key_rows = [[codes[k], "exp01_example", items[i][0], items[i][1]] for k, i in enumerate(order)]
    r1, r2 = [], []
    for code in codes:
        for dim in REVIEW_DIMENSIONS:
            s1 = rng.randint(2, 5)
            s2 = max(1, min(5, s1 + rng.choice((-2, -1, 0, 0, 0, 1))))
            r1.append([code, "reviewer_1", dim, str(s1), ""])
            r2.append([code, "reviewer_2", dim, str(s2), ""])
    r2[3][3] = "6"  # out of the 1-5 scale: kept and flagged, never clipped
    r2[3][4] = "typo in the paper form"
    header = ["review_code", "reviewer_id", "dimension", "score", "note"]
    return (_csv_bytes(header, r1), _csv_bytes(header, r2),
            _csv_bytes(["review_code", "experiment_id", "group_id", "case_id"], key_rows))


REGRESSION_REQUIREMENTS = {c: {"tool_types": ["pos_aggregate", "budget_lookup"],
                               "metric_paths": ["pnl.top_level", "budget.current"]} for c in CORE_CASES}


# ----------------------------------------------------------------------------------------------------------- main
def truth_values(pack: Path) -> dict[str, dict]:
    """Exact reference values per case (None when not verifiable), from the files as written."""
    out = {}
    for cid in CORE_CASES:
        ref = case_reference(pack / "cases" / cid, PERIODS)
        out[cid] = ref.values
    r01 = pack / "cases" / uci.CASE_ID / "pos.parquet"
    rev = uci.reference_revenue(r01)["revenue_delta"] if r01.exists() else None
    out[uci.CASE_ID] = {f: None for f in PNL_FIELDS} | {"revenue_delta": rev}
    return out


def generate(root: Path, seed: int = SEED) -> list[Path]:
    """Write the pack, golden, example results, attempts, reviews and regression requirements under ``root``.

    ``seed`` other than the default gives a seed variant: same cases, same golden labels, other raw rows. Variants
    are for robustness checks of the pipeline; they are not an independent hold-out set (the scenarios and labels
    are the same).
    """
    global _seed
    _seed = seed
    root = Path(root)
    pack = root / "pack"
    for cid, spec in CASES.items():
        _write_case(pack, cid, spec)
    _write(pack / "protocol.json", _json_bytes(PROTOCOL))
    _write(pack / "cases.csv", _cases_csv())
    _write(pack / "evaluation" / "golden.json", _json_bytes(_golden()))
    truth = truth_values(pack)
    exps = _experiments(truth)
    for exp_id, exp in exps.items():
        for group, content in exp["groups"].items():
            _write(root / "results" / exp_id / f"{group}_results.json", _dump(content))
        for att_id, manifest in exp["attempts"].items():
            _write(root / "results" / exp_id / "attempts" / att_id / "manifest.json",
                   _json_bytes({"attempt_id": att_id, **manifest}))
    r1, r2, key = _reviews(exps)
    _write(root / "reviews" / "exp01_reviewer_1.csv", r1)
    _write(root / "reviews" / "exp01_reviewer_2.csv", r2)
    _write(root / "reviews" / "keys" / "exp01_review_key.csv", key)
    _write(root / "regression" / "case_requirements.json", _json_bytes(REGRESSION_REQUIREMENTS))
    return sorted(p for p in root.rglob("*") if p.is_file())
