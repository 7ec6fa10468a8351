"""Raw-data checks of the decision comparison inputs, before any build: each problem names file, row and column.

Checks: the header of every case CSV file, read with the case's declared delimiter or the one detected from it
(``evalhouse.decisions.case_files``), and the locale declared in cases.csv; every results file and attempt manifest
is JSON of the documented shape (jsonschema); in a results file, each of the six top-level P&L fields is a JSON
number, null or an object (a string such as ``"lots"`` or a boolean is a problem: the protocol asks for a number),
and no case is recorded twice for the same attempt; golden.json and protocol.json parse. A JSON problem is reported as
``file:line:column: path: message`` (line and column of the offending value).

Not problems (the warehouse keeps and scores them): row-level POS problems (an empty quantity, an unreadable
price: the case's source is marked invalid, C07 on purpose), protocol shapes the protocol check classifies (a
budget object, target metrics without scope), and a case recorded again in a later attempt (reported by the
comparison and left out of the pairs): that last one is returned as a note.
"""
from __future__ import annotations

import json
from json.decoder import scanstring
from pathlib import Path

import jsonschema

from evalhouse.decisions.cards import PNL_FIELDS, json_kind, load_card
from evalhouse.decisions.case_files import case_files, read_case_locales

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


def validate_decisions_raw(root: Path, notes: list[str] | None = None) -> list[str]:
    """All problems found under ``root`` (data/decisions), as 'file: where: what' lines; empty when clean.
    ``notes``, when given, receives what is worth knowing but not an error (a case re-recorded in another attempt)."""
    root = Path(root)
    problems: list[str] = []
    locale_problems = {loc.problem for loc in read_case_locales(root / "pack" / "cases.csv").values() if loc.problem}
    problems += sorted(locale_problems)
    files = case_files(root)
    problems += [p for p in files["file_problem"].dropna() if not any(p.endswith(lp) for lp in locale_problems)]
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
        text = path.read_text(encoding="utf-8")
        positions = json_positions(text)

        def at(json_path: tuple) -> str:
            line, col = positions.get(tuple(json_path), (1, 1))
            return f"{path}:{line}:{col}: {'/'.join(str(p) for p in json_path) or '(top level)'}"

        for err in jsonschema.Draft202012Validator(schema).iter_errors(_plain(doc)):
            problems.append(f"{at(tuple(err.absolute_path))}: {err.message}")
        if schema is RESULTS_SCHEMA and isinstance(doc, dict) and isinstance(doc.get("cards"), list):
            problems += _results_problems(doc["cards"], at, path, notes)
    return problems


def _results_problems(cards: list, at, path: Path, notes: list[str] | None) -> list[str]:
    """P&L fields that are text or booleans; a case recorded twice for the same attempt."""
    problems: list[str] = []
    first_seen: dict[tuple, int] = {}
    by_case: dict[str, list[tuple[int, object]]] = {}
    for i, entry in enumerate(cards):
        if not isinstance(entry, dict):
            continue
        card = entry.get("card")
        pnl = card.get("P&L IMPACT") if isinstance(card, dict) else None
        for field in PNL_FIELDS if isinstance(pnl, dict) else ():
            kind = json_kind(pnl.get(field), field in pnl)
            if kind in ("string", "boolean", "array"):
                problems.append(f"{at(('cards', i, 'card', 'P&L IMPACT', field))}: {json.dumps(pnl[field])} is a "
                                f"{kind}; a P&L field is a JSON number or null")
        case_id, attempt = entry.get("case_id"), entry.get("attempt_id")
        if not isinstance(case_id, str):
            continue
        key = (case_id, attempt)
        if key in first_seen:
            problems.append(f"{at(('cards', i, 'case_id'))}: case {case_id!r} is recorded twice for attempt "
                            f"{attempt!r} (first at cards/{first_seen[key]}); keep one card per case and attempt")
        else:
            first_seen[key] = i
        by_case.setdefault(case_id, []).append((i, attempt))
    for case_id, seen in by_case.items():
        attempts = sorted({str(a) for _, a in seen})
        if notes is not None and len(attempts) > 1:
            notes.append(f"{path}: case {case_id!r} is recorded in attempts {', '.join(attempts)}; the comparison "
                         "reports it (fct_decisions__missing_cases) and leaves it out of the paired metrics")
    return problems


def json_positions(text: str) -> dict[tuple, tuple[int, int]]:
    """JSON path (keys and list indexes) -> (line, column), both 1-based, of where each value starts in ``text``.
    Empty when the text is not valid JSON (the parser's own error names the position then)."""
    out: dict[tuple, tuple[int, int]] = {}
    decoder = json.JSONDecoder()
    line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]

    def where(idx: int) -> tuple[int, int]:
        import bisect

        line = bisect.bisect_right(line_starts, idx)
        return line, idx - line_starts[line - 1] + 1

    def skip(i: int) -> int:
        while i < len(text) and text[i] in " \t\r\n":
            i += 1
        return i

    def value(i: int, json_path: tuple) -> int:
        i = skip(i)
        out[json_path] = where(i)
        if text[i] == "{":
            i = skip(i + 1)
            if text[i] == "}":
                return i + 1
            while True:
                key, i = scanstring(text, skip(i) + 1)
                i = value(skip(i) + 1, json_path + (key,))  # skip the colon
                i = skip(i)
                if text[i] == "}":
                    return i + 1
                i += 1  # comma
        if text[i] == "[":
            i = skip(i + 1)
            if text[i] == "]":
                return i + 1
            n = 0
            while True:
                i = skip(value(i, json_path + (n,)))
                n += 1
                if text[i] == "]":
                    return i + 1
                i += 1
        _, end = decoder.raw_decode(text, i)
        return end

    try:
        value(0, ())
    except (ValueError, IndexError):
        return {}
    return out


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
