"""Independent Python reference of the P&L recomputation (exact ``Decimal``), reading the case files as written.

The product path is SQL (models/marts/decisions/); this module is the oracle the tests compare it with and what the
case generator uses to write example claims. Definitions (the same text is in protocol.json and the model YAML):

- line revenue = quantity x unit_price; line cost = quantity x unit_cost (returns are negative quantities and reduce
  both); revenue(p), cogs(p) = sums over every row of period p, all SKUs, all stores, online + offline;
- gross_margin(p) = revenue(p) - cogs(p);
- contribution(p) = gross_margin(p) - online_fulfilment_cost_per_unit x net online units(p);
- revenue_delta = revenue(current) - revenue(base); gross_margin_delta, contribution_delta likewise;
- revenue_vs_budget = revenue(current) - revenue_budget; gross_margin_vs_budget = gross_margin(current) -
  gross_margin_budget (both budgets for the current 4 weeks);
- unexplained_inventory_exposure = sum over store x SKU of |opening + received - net units sold(current) -
  counted_closing| x unit_cost (inventory.csv), i.e. the cost value of stock that the POS rows do not explain.
A case whose raw rows do not all parse has no reference values (None): its source is invalid. Files are read with
the case's declared delimiter and number locale (``pack/cases.csv``, see ``evalhouse.decisions.case_files``).
"""
from __future__ import annotations

import csv
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path

from evalhouse.decisions.case_files import HEADERS, CaseLocale, detect_delimiter, read_case_locales
from evalhouse.decisions.money import parse_amount

POS_COLUMNS = ("date", "store_id", "channel", "sku", "quantity", "unit_price", "unit_cost", "promo_flag")
CHANNELS = ("online", "offline")


@dataclass
class CaseReference:
    case_id: str
    source_valid: bool
    problems: list[str] = field(default_factory=list)
    values: dict[str, Decimal | None] = field(default_factory=dict)
    totals: dict[str, Decimal] = field(default_factory=dict)


def _read_csv(path: Path, declared: CaseLocale | None = None) -> list[dict[str, str]]:
    declared = declared or CaseLocale()
    with open(path, newline="", encoding="utf-8-sig") as fh:  # utf-8-sig drops a BOM
        header = fh.readline().rstrip("\r\n")
        delimiter, why = detect_delimiter(header, HEADERS[path.stem], declared.delimiter)
        if why:
            raise ValueError(f"{path}: row 1 (header): {why}")
        fh.seek(0)
        return list(csv.DictReader(fh, delimiter=delimiter))


def case_reference(case_dir: Path, periods: dict[str, tuple[date, date]]) -> CaseReference:
    """Recompute the six fields of one synthetic case from its pos.csv, budget.csv and inventory.csv.

    A file that cannot be read, a row that does not parse, or a period without POS rows gives no values (None)."""
    case_dir = Path(case_dir)
    ref = CaseReference(case_dir.name, True)
    declared = read_case_locales(case_dir.parent.parent / "cases.csv").get(case_dir.name, CaseLocale())
    try:
        pos_rows = _read_csv(case_dir / "pos.csv", declared)
        budget_rows = _read_csv(case_dir / "budget.csv", declared)
        inventory_rows = _read_csv(case_dir / "inventory.csv", declared)
    except ValueError as exc:
        ref.problems.append(str(exc))
        ref.source_valid = False
        ref.values = {k: None for k in _FIELDS}
        return ref
    loc = declared.locale
    n_rows = {p: 0 for p in periods}
    zero = Decimal(0)
    totals = {f"{k}_{p}": zero for p in periods for k in ("revenue", "cogs", "online_units")}
    sold: dict[tuple[str, str], Decimal] = {}
    for i, row in enumerate(pos_rows, start=2):
        qty, price, cost = (parse_amount(row.get(c), loc) for c in ("quantity", "unit_price", "unit_cost"))
        try:
            day = date.fromisoformat((row.get("date") or "").strip())
        except ValueError:
            day = None
        extra = ["extra_fields"] if None in row else []  # DictReader keeps surplus fields under the key None
        bad = extra + [n for n, v in (("quantity", qty), ("unit_price", price), ("unit_cost", cost), ("date", day)) if v is None]
        if (row.get("channel") or "").strip() not in CHANNELS:
            bad.append("channel")
        if bad:
            ref.problems.append(f"pos.csv line {i}: {', '.join(bad)}")
            continue
        period = next((p for p, (lo, hi) in periods.items() if lo <= day <= hi), None)
        if period is None:
            continue
        n_rows[period] += 1
        totals[f"revenue_{period}"] += qty * price
        totals[f"cogs_{period}"] += qty * cost
        if row["channel"].strip() == "online":
            totals[f"online_units_{period}"] += qty
        if period == "current":
            key = (row["store_id"], row["sku"])
            sold[key] = sold.get(key, zero) + qty
    budget = {r["metric"]: parse_amount(r["amount"], loc) for r in budget_rows}
    if ref.problems or any(v is None for v in budget.values()):
        ref.source_valid = False
        ref.values = {k: None for k in _FIELDS}
        return ref
    fulfil = budget["online_fulfilment_cost_per_unit"]
    gm = {p: totals[f"revenue_{p}"] - totals[f"cogs_{p}"] for p in periods}
    contrib = {p: gm[p] - fulfil * totals[f"online_units_{p}"] for p in periods}
    exposure = zero
    for r in inventory_rows:
        opening, received, counted, unit_cost = (
            parse_amount(r[c], loc) for c in ("opening_units", "received_units", "counted_closing_units", "unit_cost"))
        expected = opening + received - sold.get((r["store_id"], r["sku"]), zero)
        exposure += abs(expected - counted) * unit_cost
    ref.totals = {**totals, **{f"gross_margin_{p}": v for p, v in gm.items()},
                  **{f"contribution_{p}": v for p, v in contrib.items()}}
    has = {p: n_rows.get(p, 0) > 0 for p in periods}
    ref.values = {
        "revenue_delta": totals["revenue_current"] - totals["revenue_base"],
        "gross_margin_delta": gm["current"] - gm["base"],
        "contribution_delta": contrib["current"] - contrib["base"],
        "revenue_vs_budget": totals["revenue_current"] - budget["revenue_budget"],
        "gross_margin_vs_budget": gm["current"] - budget["gross_margin_budget"],
        "unexplained_inventory_exposure": exposure,
    }
    for f in ref.values:  # no POS row in the current period: nothing; none in the base period: no deltas
        if not has.get("current", True) or (f.endswith("_delta") and not has.get("base", True)):
            ref.values[f] = None
    return ref


_FIELDS = ("revenue_delta", "gross_margin_delta", "contribution_delta", "revenue_vs_budget",
           "gross_margin_vs_budget", "unexplained_inventory_exposure")
