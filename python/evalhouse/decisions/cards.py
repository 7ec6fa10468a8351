"""Decision cards: the fixed field set, exact JSON reading, and the two card audits named by the spec.

A card is a JSON object with the fields ``BUSINESS STATE`` .. ``CONFIDENCE`` (``CARD_FIELDS``, in that order).
Its ``P&L IMPACT`` holds the six top-level fields (``PNL_FIELDS``), each a single number or ``null``, with one scope:
all SKUs, all stores, online + offline, current 4 weeks vs base 4 weeks. Numbers are read with ``Decimal``
(``load_card``): DuckDB's JSON functions parse numbers as DOUBLE (``12345678901234567.125`` comes back as
``...568.0``), so no card number is ever read by SQL JSON functions.

``audit_pnl_against_evidence(card)``: internal consistency only (P&L value vs the card's own
``EVIDENCE[].metrics`` of the same name); it is not ground truth.
``audit_financial_accuracy(card, authoritative)``: claimed vs an independent recomputation; ``verified``,
``incorrect`` or ``not_verifiable`` per field; a missing value is never correct.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

CARD_FIELDS = (
    "BUSINESS STATE",
    "EVIDENCE",
    "UNKNOWNS",
    "DECISION",
    "ACTIONS",
    "P&L IMPACT",
    "RISKS",
    "HUMAN APPROVAL",
    "CONFIDENCE",
)
PNL_FIELDS = (
    "revenue_delta",
    "gross_margin_delta",
    "contribution_delta",
    "revenue_vs_budget",
    "gross_margin_vs_budget",
    "unexplained_inventory_exposure",
)
BUDGET_FIELDS = ("revenue_vs_budget", "gross_margin_vs_budget")
DECISIONS = ("ACT", "INVESTIGATE", "ESCALATE", "HOLD")
NON_HOLD_DECISIONS = ("ACT", "INVESTIGATE", "ESCALATE")
ABS_TOLERANCE = Decimal("0.01")
# The canonical top-level scope; a card may restate it under P&L IMPACT.scope, but only exactly this.
TOP_LEVEL_SCOPE = {
    "skus": "all",
    "stores": "all",
    "channels": ["offline", "online"],
    "periods": "current_4_weeks_vs_base_4_weeks",
}
TARGET_SCOPE_KEYS = ("skus", "stores", "channels", "periods")


def load_card(text: str) -> Any:
    """Parse JSON text with every number as an exact ``Decimal`` (never float)."""
    return json.loads(text, parse_float=Decimal, parse_int=Decimal)


def dump_json(value: Any) -> str:
    """Canonical JSON text (sorted keys, UTF-8 kept) with Decimals written as their exact digits."""
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(str(k), ensure_ascii=False) + ":" + dump_json(v)
                              for k, v in sorted(value.items())) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(dump_json(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def json_kind(value: Any, present: bool = True) -> str:
    """missing | null | number | string | boolean | object | array."""
    if not present:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (Decimal, int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, dict):
        return "object"
    return "array"


def _pnl(card: Any) -> Mapping:
    pnl = card.get("P&L IMPACT") if isinstance(card, dict) else None
    return pnl if isinstance(pnl, dict) else {}


def evidence_metrics(card: Any) -> dict[str, list[Decimal]]:
    """All numeric ``EVIDENCE[].metrics`` values of the card, by metric name."""
    out: dict[str, list[Decimal]] = {}
    evidence = card.get("EVIDENCE") if isinstance(card, dict) else None
    for item in evidence if isinstance(evidence, list) else []:
        metrics = item.get("metrics") if isinstance(item, dict) else None
        for name, value in (metrics.items() if isinstance(metrics, dict) else []):
            if json_kind(value) == "number":
                out.setdefault(name, []).append(Decimal(value))
    return out


def audit_pnl_against_evidence(card: Any) -> dict[str, str]:
    """Per P&L field: does the card's P&L number match its own evidence metric of the same name?

    consistent: |pnl - metric| <= 0.01 for every evidence metric of that name;
    inconsistent: some evidence metric of that name differs by more than 0.01;
    no_evidence_metric: a number with no evidence metric of that name;
    withheld: null or missing in the P&L; not_a_number: any other JSON kind.
    This is internal consistency, not truth: a card can be consistent and wrong.
    """
    pnl = _pnl(card)
    metrics = evidence_metrics(card)
    result = {}
    for field in PNL_FIELDS:
        kind = json_kind(pnl.get(field), field in pnl)
        if kind in ("null", "missing"):
            result[field] = "withheld"
        elif kind != "number":
            result[field] = "not_a_number"
        elif field not in metrics:
            result[field] = "no_evidence_metric"
        elif all(abs(Decimal(pnl[field]) - m) <= ABS_TOLERANCE for m in metrics[field]):
            result[field] = "consistent"
        else:
            result[field] = "inconsistent"
    return result


def audit_financial_accuracy(card: Any, authoritative: Mapping[str, Decimal | None]) -> dict[str, str]:
    """Per P&L field: claimed vs an independent deterministic recomputation.

    verified: |claimed - authoritative| <= 0.01 (boundary inclusive); incorrect: farther apart;
    not_verifiable: the claim is missing, null or not a number, or no authoritative value exists (None or absent).
    A missing value is never counted as correct.
    """
    pnl = _pnl(card)
    result = {}
    for field in PNL_FIELDS:
        claimed = pnl.get(field)
        truth = authoritative.get(field)
        if json_kind(claimed, field in pnl) != "number" or truth is None:
            result[field] = "not_verifiable"
        elif abs(Decimal(claimed) - Decimal(truth)) <= ABS_TOLERANCE:
            result[field] = "verified"
        else:
            result[field] = "incorrect"
    return result
