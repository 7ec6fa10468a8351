"""GRADE packs as a suite's contract tables: what ``suite check`` and ``suite land`` read for a suite whose
``suite.yml`` names ``pack_dir`` (``suites/grade/``).

``pack_dir`` (relative to the suite folder) holds one sub-folder per pack in the format of
``data/grade/PACK_FORMAT.md``. Four pack files give the shared data model's tables:

================  ===================  =================================================================
contract table    pack file            how
================  ===================  =================================================================
items             tasks.csv            item_id = pack_id/task_id, task = task_id, category = track <n>,
                                       language en, input_text = prompt
responses         responses.jsonl      response_id = grade-<pack_id>-<task_id>-<md5(model)[:12]>-r<run>,
                                       system_id = model, repetition = run, response_text = raw_output =
                                       raw_text
response_labels   responses.jsonl      one label per structured_metrics entry (key -> value as text)
gold              gold_facts.csv       fact_kind numeric / string -> numeric_fact / string_fact, gold_key =
                                       fact_id, an empty tolerance is 0
ratings           judge_ratings.csv    rater_kind judge, rater_id = <judge_model>@<prompt_version>
================  ===================  =================================================================

The other pack files (pack.csv, task_weights.csv, gold_insights.csv, required_limitations.csv,
forbidden_claims.csv, judge_verdicts.csv, and the key findings and limitations of responses.jsonl) are particular
to GRADE: dbt reads them as the ``grade`` source (``models/staging/grade/``).

:func:`read_packs` checks what the conversion relies on (every pack file present, the columns it reads, the parts of
each id, the JSON shapes of a response, fact kinds) and reports it as ``file:row:column: message`` in the pack's own
names; the converted rows then get every check of a suite (:mod:`evalhouse.suites.check`), whose problems
:meth:`PackTables.in_pack_terms` words with the pack column a contract column came from. Rows are the file's lines
(the CSV header is line 1).
"""
from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from evalhouse.suites.check import EMPTY, Problem, _csv_header, _parse_problem, _rel, _text
from evalhouse.suites.contract import TABLES

__all__ = ["PACK_FILES", "PackTables", "read_packs", "response_id"]

# Every file of a pack the warehouse reads (PACK_FORMAT.md); an empty file with its header row is fine.
PACK_FILES = ("pack.csv", "tasks.csv", "task_weights.csv", "gold_facts.csv", "gold_insights.csv",
              "required_limitations.csv", "forbidden_claims.csv", "responses.jsonl", "judge_ratings.csv",
              "judge_verdicts.csv")
# The columns the conversion reads, per pack file (the others are documentation or read by dbt).
_READ = {
    "tasks.csv": ("pack_id", "task_id", "track", "prompt"),
    "gold_facts.csv": ("pack_id", "task_id", "fact_id", "fact_kind", "gold_value", "abs_tol", "rel_tol"),
    "judge_ratings.csv": ("pack_id", "task_id", "model", "run", "criterion", "score", "rubric_id", "rubric_version",
                          "judge_model", "prompt_version"),
}
_OPTIONAL = {"judge_ratings.csv": ("reason", "rated_at")}
_RESPONSE_ID = "pack_id,task_id,model,run"
# contract column -> the pack column(s) it comes from, per pack file (for the problems of the suite check)
_PACK_COLUMNS = {
    "tasks.csv": {"item_id": "task_id", "task": "task_id", "input_text": "prompt", "category": "track"},
    "responses.jsonl": {"response_id": _RESPONSE_ID, "item_id": "task_id", "system_id": "model",
                        "repetition": "run", "response_text": "raw_text", "raw_output": "raw_text",
                        "label_name": "structured_metrics", "label_value": "structured_metrics"},
    "gold_facts.csv": {"item_id": "task_id", "gold_kind": "fact_kind", "gold_key": "fact_id"},
    "judge_ratings.csv": {"response_id": _RESPONSE_ID, "item_id": "task_id", "system_id": "model",
                          "repetition": "run", "rater_id": "judge_model,prompt_version"},
}
_FACT_KINDS = {"numeric": "numeric_fact", "string": "string_fact"}


def response_id(pack_id: str, task_id: str, model: str, run: str) -> str:
    """The id of a pack response: ``grade-<pack_id>-<task_id>-<12 hex of md5(model)>-r<run>`` (run as written).
    stg_grade__response_items and stg_grade__judge_verdicts compute the same id in SQL."""
    return f"grade-{pack_id}-{task_id}-{hashlib.md5(model.encode('utf-8')).hexdigest()[:12]}-r{run}"


@dataclass
class PackTables:
    """The contract tables read from the packs (text frames as ``read_table_files`` gives them, plus
    ``_source_row``: the row's number among its file's data rows, 1 = first), the contract columns each table
    fills, and the pack files they came from."""
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    present: dict[str, set[str]] = field(default_factory=dict)
    files: set[str] = field(default_factory=set)

    def in_pack_terms(self, problem: Problem) -> Problem:
        """A problem of the suite check on a converted row, with the pack column(s) in place of the contract's."""
        if problem.file not in self.files:
            return problem
        names = _PACK_COLUMNS.get(Path(problem.file).name, {})
        column = ",".join(names.get(c, c) for c in problem.column.split(",")) if problem.column else ""
        message = problem.message
        if problem.column in names and message.startswith(problem.column + " "):
            message = names[problem.column] + message[len(problem.column):]
        return dataclasses.replace(problem, column=column, message=message)


def _frame(table: str, rows: list[dict] | dict[str, list]) -> pd.DataFrame:
    """The rows of one contract table as a frame of objects: from row dicts (a column a row lacks is ''), or from
    columns (name -> values, every column as long; one not given is ''), which is what millions of rows are built
    as: a frame from 5M row dicts took 5 s, and its fillna as long again."""
    names = TABLES[table].names + ["_file", "_row", "_source_row"]
    if isinstance(rows, dict):
        n = len(next(iter(rows.values())))
        return pd.DataFrame({c: rows[c] if c in rows else [""] * n for c in names}, dtype=object)
    return pd.DataFrame(rows, columns=names, dtype=object).fillna("").astype(object)


def _read(path: Path, problems: list[Problem], jsonl_value=None) -> list[tuple[int, dict]] | None:
    from evalhouse.ratings.store import ImportRejected, read_rows

    try:
        return read_rows(Path(_rel(path)), jsonl_value=jsonl_value)
    except ImportRejected as exc:
        problems.extend(_parse_problem(msg, _rel(path)) for msg in exc.problems)
        return None


def _csv(path: Path, problems: list[Problem]) -> list[tuple[int, dict]] | None:
    """A pack CSV's rows, or None after reporting why it cannot be read; the columns the conversion reads must be in
    the header."""
    rows = _read(path, problems)
    if rows is None:
        return None
    header = _csv_header(path)
    missing = [c for c in _READ[path.name] if c not in header]
    for c in missing:
        problems.append(Problem(_rel(path), 1, c, f"missing required column {c!r} (data/grade/PACK_FORMAT.md)"))
    if missing:
        return None
    optional = _OPTIONAL.get(path.name, ())
    return [(line, {**{c: "" for c in optional}, **row}) for line, row in rows]


def _required(name: str, line: int, row: dict, columns: tuple[str, ...], problems: list[Problem]) -> bool:
    """True when every column has a value; else one problem per empty one."""
    empty = [c for c in columns if row.get(c, "").strip() == ""]
    problems.extend(Problem(name, line, c, f"{c} is required") for c in empty)
    return not empty


def _items(path: Path, problems: list[Problem]) -> list[dict] | None:
    name, out, rows = _rel(path), [], _csv(path, problems)
    if rows is None:
        return None
    for n, (line, r) in enumerate(rows, start=1):
        if not _required(name, line, r, ("pack_id", "task_id"), problems):
            continue
        out.append({"item_id": f"{r['pack_id']}/{r['task_id']}", "task": r["task_id"], "language": "en",
                    "category": f"track {r['track']}" if r["track"] != "" else "", "input_text": r["prompt"],
                    "_file": name, "_row": line, "_source_row": n})
    return out


def _gold(path: Path, problems: list[Problem]) -> list[dict] | None:
    name, out, rows = _rel(path), [], _csv(path, problems)
    if rows is None:
        return None
    for n, (line, r) in enumerate(rows, start=1):
        if not _required(name, line, r, ("pack_id", "task_id", "fact_id", "fact_kind"), problems):
            continue
        kind = r["fact_kind"].strip()
        if kind not in _FACT_KINDS:
            problems.append(Problem(name, line, "fact_kind", f"fact_kind must be numeric or string, not {kind!r}"))
            continue
        out.append({"item_id": f"{r['pack_id']}/{r['task_id']}", "gold_kind": _FACT_KINDS[kind],
                    "gold_key": r["fact_id"], "gold_value": r["gold_value"],
                    "abs_tol": r["abs_tol"] if r["abs_tol"].strip() else "0",
                    "rel_tol": r["rel_tol"] if r["rel_tol"].strip() else "0",
                    "_file": name, "_row": line, "_source_row": n})
    return out


def _ratings(path: Path, problems: list[Problem]) -> list[dict] | None:
    name, out, rows = _rel(path), [], _csv(path, problems)
    if rows is None:
        return None
    for n, (line, r) in enumerate(rows, start=1):
        if not _required(name, line, r, ("pack_id", "task_id", "model", "run", "judge_model", "prompt_version"),
                         problems):
            continue
        out.append({"response_id": response_id(r["pack_id"], r["task_id"], r["model"], r["run"]),
                    "rater_id": f"{r['judge_model']}@{r['prompt_version']}", "rater_kind": "judge",
                    "criterion": r["criterion"], "score": r["score"], "reason": r["reason"],
                    "rubric_id": r["rubric_id"], "rubric_version": r["rubric_version"], "is_blind": "false",
                    "rated_at": r["rated_at"], "judge_model": r["judge_model"],
                    "_file": name, "_row": line, "_source_row": n})
    return out


def _is_text_list(value) -> bool:
    return value is None or isinstance(value, list) and all(isinstance(v, str) for v in value)


def _responses(path: Path, problems: list[Problem]) -> tuple[list[dict], dict[str, list]] | None:
    """responses.jsonl as responses (row dicts, one per line) and response_labels (columns, one value per
    structured_metrics entry: a pack of 500k responses has 5M)."""
    name = _rel(path)
    # no response yet: an empty file (JSON Lines has no header row)
    from evalhouse.ratings.store import JSON_VALUES

    rows = _read(path, problems, jsonl_value=JSON_VALUES) if path.read_bytes().strip() else []
    if rows is None:
        return None
    responses: list[dict] = []
    labels: dict[str, list] = {"response_id": [], "label_name": [], "label_value": [], "_row": [], "_source_row": []}
    for n, (line, r) in enumerate(rows, start=1):
        ids = {c: _text(r.get(c)) for c in ("pack_id", "task_id", "model", "run")}
        ok = _required(name, line, ids, tuple(ids), problems)
        for c in ("key_findings", "limitations"):
            if not _is_text_list(r.get(c)):
                problems.append(Problem(name, line, c, f"{c} must be a list of strings"))
        metrics = r.get("structured_metrics")
        if metrics is not None and not isinstance(metrics, dict):
            problems.append(Problem(name, line, "structured_metrics", "structured_metrics must be one JSON object "
                                    "(metric key -> value)"))
            ok = False
        raw = r.get("raw_text")
        if raw is not None and not isinstance(raw, str):
            problems.append(Problem(name, line, "raw_text", "raw_text must be a string"))
            ok = False
        if not ok:
            continue
        rid = response_id(ids["pack_id"], ids["task_id"], ids["model"], ids["run"])
        raw = EMPTY if raw == "" else _text(raw)
        responses.append({"response_id": rid, "item_id": f"{ids['pack_id']}/{ids['task_id']}",
                          "system_id": ids["model"], "repetition": ids["run"], "response_text": raw,
                          "raw_output": raw, "is_reference_system": "false",
                          "_file": name, "_row": line, "_source_row": n})
        if metrics:
            k = len(metrics)
            labels["response_id"] += [rid] * k
            labels["label_name"] += metrics.keys()
            labels["label_value"] += [EMPTY if value == "" else _text(value) for value in metrics.values()]
            labels["_row"] += [line] * k
            labels["_source_row"] += [n] * k
    labels["_file"] = [name] * len(labels["response_id"])
    return responses, labels


def _has_text(path: Path) -> bool:
    """True when the file holds something besides blanks and a UTF-8 byte order mark (its first KiB is read)."""
    with open(path, "rb") as fh:
        return bool(fh.read(1024).removeprefix(b"\xef\xbb\xbf").strip())


def read_packs(root: Path, problems: list[Problem]) -> PackTables:
    """Every pack under ``root`` (its sub-folders, by name) as the contract tables items, responses,
    response_labels, gold and ratings; pack problems are appended to ``problems``."""
    root = Path(root)
    out = PackTables()
    packs = sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not packs:
        problems.append(Problem(_rel(root), 0, "", "no pack folder (one sub-folder per pack, "
                                "data/grade/PACK_FORMAT.md)"))
    rows: dict[str, list[dict]] = {t: [] for t in ("items", "responses", "gold", "ratings")}
    label_parts: list[dict[str, list]] = []
    for pack in packs:
        missing = [f for f in PACK_FILES if not (pack / f).is_file()]
        for f in missing:
            problems.append(Problem(_rel(pack / f), 0, "", "missing pack file (every file of "
                                    "data/grade/PACK_FORMAT.md must exist; an empty file with its header row is "
                                    "fine)"))
        if missing:
            continue
        # dbt reads each CSV by its header row: an empty one stops the build with a binder error, not a problem
        empty = [f for f in PACK_FILES if f.endswith(".csv") and not _has_text(pack / f)]
        for f in empty:
            problems.append(Problem(_rel(pack / f), 0, "", "the file is empty: a pack's CSV file needs at least its "
                                    "header row (data/grade/PACK_FORMAT.md)"))
        if empty:
            continue
        out.files |= {_rel(pack / f) for f in _PACK_COLUMNS}
        items, responses = _items(pack / "tasks.csv", problems), _responses(pack / "responses.jsonl", problems)
        gold, ratings = _gold(pack / "gold_facts.csv", problems), _ratings(pack / "judge_ratings.csv", problems)
        # A pack whose tasks (or responses) cannot be read converts nothing that refers to them: its problems would
        # only echo the file's.
        if items is None:
            continue
        rows["items"] += items
        rows["gold"] += gold or []
        if responses is not None:
            rows["responses"] += responses[0]
            label_parts.append(responses[1])
            rows["ratings"] += ratings or []
    for table, table_rows in rows.items():
        if table_rows:
            out.tables[table] = _frame(table, table_rows)
            out.present[table] = {c for c in table_rows[0] if not c.startswith("_")}  # every row has the same keys
    if any(part["response_id"] for part in label_parts):
        labels = {c: [v for part in label_parts for v in part[c]] for c in label_parts[0]}
        out.tables["response_labels"] = _frame("response_labels", labels)
        out.present["response_labels"] = {c for c in labels if not c.startswith("_")}
    order = ("items", "responses", "response_labels", "gold", "ratings")  # the tables are checked in this order
    out.tables = {t: out.tables[t] for t in order if t in out.tables}
    return out
