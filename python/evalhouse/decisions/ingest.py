"""JSON inputs of the decision comparison -> rows for the dbt Python staging models (no rules here, only facts).

Every value leaves as text (numbers as their exact digits, read with ``Decimal``); the SQL models type them with
``try_cast(... as decimal(38, 10))``. A file that is not valid JSON does not stop the build: its row carries
``file_error`` naming the file, line and column, and a dbt test fails on it with that message.

Layout (under ``data/decisions/`` or ``$EVALHOUSE_DECISIONS_DIR``):
``results/<experiment>/<group>_results.json``, ``results/<experiment>/attempts/<NNN>/manifest.json``,
``pack/evaluation/golden.json``, ``pack/protocol.json``, ``regression/case_requirements.json``.

In the warehouse these files are the dbt source ``decisions`` (format blob): each staging model passes the bytes it
got from its base_ model as ``files`` (``file_blobs``); without ``files`` a function reads the files under ``root``.
"""
from __future__ import annotations

import json
import os
import re
from decimal import Decimal
from pathlib import Path
from typing import Any

from evalhouse.decisions.cards import (
    PNL_FIELDS,
    TARGET_SCOPE_KEYS,
    TOP_LEVEL_SCOPE,
    dump_json,
    json_kind,
    load_card,
)

_ARM = re.compile(r"^([A-D])(_.*)?$")


def decisions_dir() -> Path:
    env = os.environ.get("EVALHOUSE_DECISIONS_DIR")
    if env:
        return Path(env).resolve()
    from evalhouse import paths

    return paths.project_dir() / "data" / "decisions"


def _rel(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root.parent.parent))
    except ValueError:
        return str(path)


def file_blobs(relation) -> dict[Path, bytes]:
    """Absolute path -> bytes of each row (filename, content) of a relation read by ``read_source`` (format blob);
    a relative file name is taken from the working directory (dbt runs in the project folder)."""
    return {Path(name).resolve(): bytes(content) for name, content in relation.project("filename, content").fetchall()}


def _matching(root: Path, pattern: str, files: dict[Path, bytes] | None) -> list[Path]:
    """The files matching ``pattern`` under ``root`` (on disk, or among ``files``), sorted by path."""
    if files is None:
        return sorted(root.glob(pattern))
    return sorted(files)


def _load(path: Path, files: dict[Path, bytes] | None = None) -> tuple[Any, str | None]:
    try:
        if files is None:
            text = path.read_text(encoding="utf-8")
        else:  # as read_text does: UTF-8, universal newlines
            text = files[path].decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
        return load_card(text), None
    except json.JSONDecodeError as exc:
        return None, f"{path}: line {exc.lineno}, column {exc.colno}: {exc.msg}"
    except UnicodeDecodeError as exc:
        return None, f"{path}: byte {exc.start}: not UTF-8"


def _text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (dict, list)):
        return dump_json(value)
    return str(value)


def group_arm(group_id: str) -> str:
    """A/B/C/D for ``A``, ``A_dashboard_human`` ...; otherwise the group id itself."""
    m = _ARM.match(group_id or "")
    return m.group(1) if m else group_id


def _frame(rows: list[dict], columns: list[str]):
    import pandas as pd

    return pd.DataFrame(rows, columns=columns, dtype="object").astype("string")


def _result_files(root: Path, files: dict[Path, bytes] | None = None):
    for path in _matching(root, "results/*/*_results.json", files):
        yield path.parent.name, path.name[: -len("_results.json")], path


RESULT_FILE_COLUMNS = ["experiment_id", "group_id", "group_arm", "source_file", "declared_status", "response_shape",
                       "n_cards", "file_error"]


def result_files(root: Path | None = None, files: dict[Path, bytes] | None = None):
    root = root or decisions_dir()
    rows = []
    for exp, group, path in _result_files(root, files):
        doc, err = _load(path, files)
        if err is None and not isinstance(doc, dict):
            err = f"{path}: the top level must be an object with group, status, response_shape, cards"
        doc = doc if isinstance(doc, dict) else {}
        cards = doc.get("cards")
        if err is None and not isinstance(cards, list):
            err = f"{path}: 'cards' must be a list"
        if err is None and doc.get("group") not in (None, group):
            err = f"{path}: 'group' is {doc.get('group')!r} but the file name says {group!r}"
        rows.append({"experiment_id": exp, "group_id": group, "group_arm": group_arm(group),
                     "source_file": _rel(path, root), "declared_status": _text(doc.get("status")),
                     "response_shape": _text(doc.get("response_shape")),
                     "n_cards": str(len(cards)) if isinstance(cards, list) else None, "file_error": err})
    return _frame(rows, RESULT_FILE_COLUMNS)


CARD_COLUMNS = ["experiment_id", "group_id", "group_arm", "source_file", "card_position", "case_id", "attempt_id",
                "card_kind", "decision", "human_approval_required", "pnl_kind", "pnl_scope_kind",
                "pnl_scope_matches", "target_metrics_kind", "target_scope_complete", "agent_decision_before",
                "override_reason", "card_json"]
CLAIM_COLUMNS = ["experiment_id", "group_id", "card_position", "case_id", "field_name", "json_kind", "claimed_text",
                 "object_keys"]


def _iter_cards(root: Path, files: dict[Path, bytes] | None = None):
    for exp, group, path in _result_files(root, files):
        doc, err = _load(path, files)
        if err or not isinstance(doc, dict) or not isinstance(doc.get("cards"), list):
            continue
        for pos, entry in enumerate(doc["cards"], start=1):
            yield exp, group, path, pos, entry if isinstance(entry, dict) else {}


def _canonical_scope(scope: Any) -> str | None:
    if not isinstance(scope, dict):
        return None
    norm = dict(scope)
    if isinstance(norm.get("channels"), list):
        norm["channels"] = sorted(str(c) for c in norm["channels"])
    return dump_json(norm)


def result_cards(root: Path | None = None, files: dict[Path, bytes] | None = None):
    root = root or decisions_dir()
    rows = []
    top_scope = _canonical_scope(TOP_LEVEL_SCOPE)
    for exp, group, path, pos, entry in _iter_cards(root, files):
        card = entry.get("card")
        c = card if isinstance(card, dict) else {}
        pnl = c.get("P&L IMPACT")
        p = pnl if isinstance(pnl, dict) else {}
        approval = c.get("HUMAN APPROVAL")
        before = entry.get("agent_card_before")
        target = p.get("target_metrics")
        tscope = target.get("scope") if isinstance(target, dict) else None
        rows.append({
            "experiment_id": exp, "group_id": group, "group_arm": group_arm(group), "source_file": _rel(path, root),
            "card_position": str(pos), "case_id": _text(entry.get("case_id")),
            "attempt_id": _text(entry.get("attempt_id")),
            "card_kind": json_kind(card, "card" in entry),
            "decision": _text(c.get("DECISION")) if isinstance(c.get("DECISION"), str) else None,
            "human_approval_required": _text(approval.get("required"))
            if isinstance(approval, dict) and isinstance(approval.get("required"), bool) else None,
            "pnl_kind": json_kind(pnl, "P&L IMPACT" in c),
            "pnl_scope_kind": json_kind(p.get("scope"), "scope" in p),
            "pnl_scope_matches": None if "scope" not in p else _text(_canonical_scope(p["scope"]) == top_scope),
            "target_metrics_kind": json_kind(target, "target_metrics" in p),
            "target_scope_complete": None if not isinstance(target, dict) else _text(
                isinstance(tscope, dict) and all(tscope.get(k) not in (None, "", [], {}) for k in TARGET_SCOPE_KEYS)),
            "agent_decision_before": _text(before.get("DECISION")) if isinstance(before, dict) else None,
            "override_reason": _text(entry.get("override_reason")),
            "card_json": dump_json(card) if card is not None else None,
        })
    return _frame(rows, CARD_COLUMNS)


def _fits_decimal_38_12(value) -> bool:
    """True when the number fits DECIMAL(38, 12) exactly (at most 12 decimals, at most 26 integer digits)."""
    d = Decimal(value)
    if not d.is_finite():
        return False
    return d.as_tuple().exponent >= -12 and (d == 0 or d.adjusted() < 26)


def _claimed_text(value: Any, kind: str) -> str | None:
    """The claim as written: a number's exact digits, a string's text, an object's or array's canonical JSON,
    true/false; None only for null or missing."""
    if kind in ("null", "missing"):
        return None
    if kind in ("number", "number_out_of_range"):
        return format(Decimal(value), "f")
    if kind == "string":
        return value
    return _text(value)


def pnl_claims(root: Path | None = None, files: dict[Path, bytes] | None = None):
    """One row per card x top-level P&L field: its JSON kind and the claim as written (``claimed_text``: a number's
    exact digits, a string's text, an object's JSON; NULL only when null or missing)."""
    root = root or decisions_dir()
    rows = []
    for exp, group, _path, pos, entry in _iter_cards(root, files):
        card = entry.get("card")
        pnl = card.get("P&L IMPACT") if isinstance(card, dict) else None
        p = pnl if isinstance(pnl, dict) else {}
        for field in PNL_FIELDS:
            value = p.get(field)
            kind = json_kind(value, field in p)
            if kind == "number" and not _fits_decimal_38_12(value):
                kind = "number_out_of_range"
            rows.append({"experiment_id": exp, "group_id": group, "card_position": str(pos),
                         "case_id": _text(entry.get("case_id")), "field_name": field, "json_kind": kind,
                         "claimed_text": _claimed_text(value, kind),
                         "object_keys": ",".join(sorted(value)) if kind == "object" else None})
    return _frame(rows, CLAIM_COLUMNS)


ATTEMPT_COLUMNS = ["experiment_id", "attempt_id", "attempt_status", "group_id", "case_id", "dispatch_outcome",
                   "manifest_file", "file_error"]


def attempts(root: Path | None = None, files: dict[Path, bytes] | None = None):
    """One row per attempt x dispatched (group, case); an attempt that dispatched nothing gets one row per group."""
    root = root or decisions_dir()
    rows = []
    for path in _matching(root, "results/*/attempts/*/manifest.json", files):
        exp, att = path.parents[2].name, path.parent.name
        doc, err = _load(path, files)
        doc = doc if isinstance(doc, dict) else {}
        base = {"experiment_id": exp, "attempt_id": att, "attempt_status": _text(doc.get("status")),
                "manifest_file": _rel(path, root), "file_error": err}
        if err is None and doc.get("attempt_id") not in (None, att):
            base["file_error"] = f"{path}: attempt_id {doc.get('attempt_id')!r} differs from its folder {att!r}"
        dispatched = [d for d in doc.get("dispatched") or [] if isinstance(d, dict)]
        for d in dispatched:
            rows.append({**base, "group_id": _text(d.get("group")), "case_id": _text(d.get("case_id")),
                         "dispatch_outcome": _text(d.get("outcome"))})
        if not dispatched:
            for g in doc.get("groups") or [None]:
                rows.append({**base, "group_id": _text(g), "case_id": None, "dispatch_outcome": None})
    return _frame(rows, ATTEMPT_COLUMNS)


def _one_file(root: Path, relative: str, files: dict[Path, bytes] | None) -> tuple[Path, dict | None]:
    """The path of a single input file and the ``files`` to read it from; an error when ``files`` lacks it."""
    if files is None:
        return root / relative, None
    if len(files) != 1:
        raise ValueError(f"{root / relative}: expected one file, found {len(files)}")
    return next(iter(files)), files


def _golden(root: Path, files: dict[Path, bytes] | None = None) -> dict:
    doc, err = _load(*_one_file(root, "pack/evaluation/golden.json", files))
    if err:
        raise ValueError(err)
    return {k: v for k, v in doc.items() if not k.startswith("_")}


GOLDEN_CASE_COLUMNS = ["case_id", "expected_decision", "act_is_unsafe"]
GOLDEN_ACCEPTED_COLUMNS = ["case_id", "accepted_decision"]


def golden_cases(root: Path | None = None, files: dict[Path, bytes] | None = None):
    gold = _golden(root or decisions_dir(), files)
    return _frame([{"case_id": cid, "expected_decision": g.get("expected_decision"),
                    "act_is_unsafe": _text(bool(g.get("act_is_unsafe")))} for cid, g in sorted(gold.items())],
                  GOLDEN_CASE_COLUMNS)


def golden_accepted(root: Path | None = None, files: dict[Path, bytes] | None = None):
    gold = _golden(root or decisions_dir(), files)
    return _frame([{"case_id": cid, "accepted_decision": d} for cid, g in sorted(gold.items())
                   for d in g.get("accepted_decisions") or []], GOLDEN_ACCEPTED_COLUMNS)


RULE_COLUMNS = ["rule_kind", "rule_key", "rule_value"]


def protocol_rules(root: Path | None = None, protocol: dict[Path, bytes] | None = None,
                   requirements: dict[Path, bytes] | None = None):
    """protocol.json's machine-readable parts as key/value rows (thresholds, decisions, allowed/forbidden actions)
    plus the internal regression requirements of C (tool types and metric paths per case). ``protocol`` and
    ``requirements``: the two files' bytes (one file each), or None to read them under ``root``."""
    root = root or decisions_dir()
    proto, err = _load(*_one_file(root, "pack/protocol.json", protocol))
    if err:
        raise ValueError(err)
    rows = [{"rule_kind": "threshold", "rule_key": k, "rule_value": _text(v)}
            for k, v in proto["numeric_thresholds"].items()]
    perm = proto["permission_boundaries"]
    rows += [{"rule_kind": "decision", "rule_key": d, "rule_value": None} for d in perm["decisions"]]
    rows += [{"rule_kind": "allowed_action", "rule_key": a, "rule_value": None} for a in perm["allowed_actions"]]
    rows += [{"rule_kind": "forbidden_action", "rule_key": a, "rule_value": None} for a in perm["forbidden_actions"]]
    req, err = _load(*_one_file(root, "regression/case_requirements.json", requirements))
    if err:
        raise ValueError(err)
    for cid, r in sorted(req.items()):
        rows += [{"rule_kind": "required_tool_type", "rule_key": cid, "rule_value": t} for t in r["tool_types"]]
        rows += [{"rule_kind": "required_metric_path", "rule_key": cid, "rule_value": m} for m in r["metric_paths"]]
    return _frame(rows, RULE_COLUMNS)
