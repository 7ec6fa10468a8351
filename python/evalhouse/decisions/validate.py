"""Raw-data checks of the decision comparison inputs, before any build: each problem names file, row and column.

Checks: CSV headers of every case file; every results file and attempt manifest is JSON of the documented shape
(jsonschema); golden.json and protocol.json parse. Row-level POS problems (an empty quantity, an unreadable price)
are data, not errors: the warehouse keeps them and marks the case's source invalid (C07 is such a case on purpose).
"""
from __future__ import annotations

import csv
from pathlib import Path

import jsonschema

from evalhouse.decisions.cards import load_card
from evalhouse.decisions.reference import POS_COLUMNS

HEADERS = {
    "pos.csv": list(POS_COLUMNS),
    "budget.csv": ["metric", "amount"],
    "inventory.csv": ["store_id", "sku", "opening_units", "received_units", "counted_closing_units", "unit_cost"],
}
RESULTS_SCHEMA = {
    "type": "object",
    "required": ["group", "status", "cards"],
    "properties": {
        "group": {"type": "string"},
        "status": {"enum": ["completed", "not_run"]},
        "response_shape": {"enum": ["public", "internal"]},
        "cards": {"type": "array", "items": {
            "type": "object", "required": ["case_id", "card"],
            "properties": {"case_id": {"type": "string"}, "attempt_id": {"type": ["string", "null"]},
                           "card": {"type": "object"}, "agent_card_before": {"type": "object"},
                           "override_reason": {"type": ["string", "null"]}}}},
    },
}
MANIFEST_SCHEMA = {
    "type": "object",
    "required": ["attempt_id", "status"],
    "properties": {
        "attempt_id": {"type": "string"},
        "status": {"type": "string"},
        "groups": {"type": "array", "items": {"type": "string"}},
        "dispatched": {"type": "array", "items": {
            "type": "object", "required": ["group", "case_id", "outcome"]}},
    },
}


def validate_decisions_raw(root: Path) -> list[str]:
    """All problems found under ``root`` (data/decisions), as 'file: where: what' lines; empty when clean."""
    root = Path(root)
    problems: list[str] = []
    for name, header in HEADERS.items():
        for path in sorted((root / "pack" / "cases").glob(f"*/{name}")):
            with open(path, newline="", encoding="utf-8-sig") as fh:
                first = next(csv.reader(fh), [])
            if first != header:
                problems.append(f"{path}: row 1 (header): columns {first} differ from {header}")
    checks = [(p, RESULTS_SCHEMA) for p in sorted((root / "results").glob("*/*_results.json"))]
    checks += [(p, MANIFEST_SCHEMA) for p in sorted((root / "results").glob("*/attempts/*/manifest.json"))]
    checks += [(root / "pack" / "evaluation" / "golden.json", {"type": "object"}),
               (root / "pack" / "protocol.json", {"type": "object"})]
    for path, schema in checks:
        try:
            doc = load_card(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            problems.append(f"{path}: missing")
            continue
        except ValueError as exc:
            problems.append(f"{path}: {exc}")
            continue
        for err in jsonschema.Draft202012Validator(schema).iter_errors(_plain(doc)):
            where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
            problems.append(f"{path}: {where}: {err.message}")
    return problems


def _plain(value):
    """Decimals -> int/str-free numbers for jsonschema's type checks (number-ness only; values are not used)."""
    from decimal import Decimal

    if isinstance(value, Decimal):
        return 0
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value
