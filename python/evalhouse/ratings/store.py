"""The append-only ratings store: validate a ratings file and append it as a new store file, all or nothing.

Store layout: ``data/ratings/<suite>/<UTC time>_<rater>_<hash>.csv``, columns ``STORE_COLUMNS`` (the last ones,
``JUDGE_COLUMNS``, describe the call of a judge run: model, prompt hash, temperature, seed, tokens, latency in ms,
cost and currency, and on a failed call its raw reply and failure reason; older files without them are read
with those columns empty). A file is written
once (temporary file + hard link, which refuses to replace an existing name) and never edited; a person's ratings
are never overwritten. dbt reads every file (stg_ratings_store__ratings).

Accepted input (CSV with a header, or JSON Lines with one object per line; a UTF-8 BOM and CRLF line ends are
accepted), one row per criterion score, in one of three shapes:
- blind: ``packet_id, letter, criterion, score`` (+ ``rater_id``, ``reason``): letters of a blind export;
- direct: ``response_id, criterion, score`` (+ ``rater_id``, ``rater_kind``, ``reason``, ``rubric_id``,
  ``rubric_version``);
- by name: ``suite, item_id, system_id, criterion, score`` (+ the same optional columns; repetition 1 unless given).
A column outside ``INPUT_COLUMNS`` is refused (a typo would lose its values), ``rated_at`` too (the store records
the import time); ``readings`` (the readers' values in ``evalhouse round adjudication-template``'s file) is read and
not stored. Every problem is reported as ``file:row:column: message`` (row = line number in the file, the
header is row 1)
and nothing is written unless every row is valid; past 50 problems the message counts the rest per kind.

Rater ids: letters, digits, ``. _ - @ : /`` and spaces (``../../x`` is rejected). A rater's or judge's own verdict
given in the file is kept for audit, never used for scoring: ``ready`` or ``pass`` (true/false, yes/no, 1/0,
pass/fail) -> ``reported_decision`` ('true'/'false'), ``total`` (a whole number) -> ``reported_total``; it must be
the same on every row of one reply. fct_reported_decisions compares them with the recomputed ready and total.
Store files written before these two columns existed stay readable (the columns are empty there).
"""
from __future__ import annotations

import contextlib
import csv
import fcntl
import hashlib
import io
import itertools
import json
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import msgspec

from evalhouse import paths
from evalhouse.files import write_new

JUDGE_COLUMNS = [
    "judge_model", "prompt_hash", "temperature", "seed", "input_tokens", "output_tokens", "latency_ms", "cost",
    "cost_currency", "raw_output", "failure_reason",
]
STORE_COLUMNS = [
    "suite", "response_id", "packet_id", "letter", "rater_id", "rater_kind", "criterion", "score", "reason",
    "rubric_id", "rubric_version", "is_blind", "rated_at", "store_row",
    # judge call metadata (evalhouse.judge), empty on other rows; files written before these columns stay readable
    *JUDGE_COLUMNS,
    # a rater's own ready / pass and total, kept for audit only (empty when not given and in older files)
    "reported_decision", "reported_total",
]
REPORTED_DECISION_COLUMNS = ("ready", "pass")  # a rater's own verdict, kept as reported_decision
# every column an import file may have (the three shapes, the optional columns, the rater's own verdict)
INPUT_COLUMNS = ("export_id", "packet_id", "letter", "response_id", "suite", "item_id", "system_id", "repetition",
                 "criterion", "score", "reason", "rater_id", "rater_kind", "rubric_id", "rubric_version", "is_blind",
                 *REPORTED_DECISION_COLUMNS, "total",
                 "readings")  # the adjudication template's context (the readers' values): read and not stored
_DECISION_WORDS = {"true": "true", "yes": "true", "1": "true", "pass": "true", "ready": "true",
                   "false": "false", "no": "false", "0": "false", "fail": "false", "not ready": "false"}
_RATER_ID = re.compile(r"[\w.@:/ -]+")
KEY_COLUMNS = ["export_id", "suite", "packet_id", "item_id", "letter", "response_id", "rubric_id", "rubric_version"]
RATER_KINDS = ("human", "judge", "program", "metric", "adjudicator")
_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


class ImportRejected(ValueError):
    """The file was rejected; ``problems`` lists every ``file:row:column: message``. Nothing was written.
    The message shows the first 50 problems and counts the rest per kind (evalhouse.problems.summarise)."""

    def __init__(self, problems: list[str]):
        from evalhouse.problems import summarise

        self.problems = problems
        super().__init__(f"{len(problems)} problem(s); nothing was imported:\n" + summarise(problems))


def rater_id_problem(rater_id: str) -> str | None:
    """Why ``rater_id`` is not acceptable (None when it is): letters, digits, ``. _ - @ : /`` and spaces only, no
    part between ``:`` or ``/`` empty or only dots (``..``, ``/x``, ``a//b``, ``judge:``), at most 100 characters.
    ``:`` and ``/`` are there for the ids ``evalhouse judge run`` writes, ``judge:<model>`` with a model such as
    ``org/model-7b``; a rater id never becomes a path (store file names keep only ``A-Z a-z 0-9 _ . -`` of it)."""
    if not rater_id.strip():
        return "empty rater"
    if rater_id != rater_id.strip():
        return f"{rater_id!r} is not a rater id (spaces at its start or end: another rater than {rater_id.strip()!r})"
    if not _RATER_ID.fullmatch(rater_id) or any(set(part) <= {"."} for part in re.split("[:/]", rater_id)):
        return (f"{rater_id!r} is not a rater id (letters, digits, '.', '_', '-', '@', ':', '/' and spaces only; "
                "no part between ':' or '/' empty or only dots)")
    if len(rater_id) > 100:
        return f"rater id of {len(rater_id)} characters (at most 100)"
    return None


@dataclass
class Catalog:
    """What a rating may refer to: responses, rubric criteria and blind keys."""

    responses: dict[str, str] = field(default_factory=dict)  # response_id -> suite
    by_name: dict[tuple, str] = field(default_factory=dict)  # (suite, item_id, system_id, repetition) -> response_id
    criteria: dict[tuple, tuple[int, int]] = field(default_factory=dict)  # (rubric_id, version, criterion) -> range
    current_version: dict[str, int] = field(default_factory=dict)  # rubric_id -> latest version
    suite_rubrics: dict[str, set] = field(default_factory=dict)  # suite -> its rubric ids
    item_rubric: dict[tuple[str, str], str] = field(default_factory=dict)  # (suite, item) -> the one rubric rated
    response_item: dict[str, tuple[str, str]] = field(default_factory=dict)  # response_id -> (suite, item_id)
    keys: dict[tuple[str, str], dict] = field(default_factory=dict)  # (packet_id, letter) -> key row
    # (suite, rater_id) -> (rater_kind, where: the first source file of the rater's ratings with that kind)
    rater_kinds: dict[tuple[str, str], tuple[str, str]] = field(default_factory=dict)

    def rubric_for(self, suite: str, item_id: str) -> tuple[str | None, str | None]:
        """The rubric a rating of this item uses when the row names none: the one rubric the item's responses
        were rated with, else the suite's only rubric. Returns (rubric_id, None) or (None, reason)."""
        if (suite, item_id) in self.item_rubric:
            return self.item_rubric[(suite, item_id)], None
        rubrics = sorted(self.suite_rubrics.get(suite, ()))
        if len(rubrics) == 1:
            return rubrics[0], None
        if not rubrics:
            return None, f"suite {suite!r} has no rubric"
        return None, f"suite {suite!r} has several rubrics ({', '.join(rubrics)}); give rubric_id"

    @classmethod
    def from_warehouse(cls, con, keys_dir: Path | None = None) -> Catalog:
        """Read responses and rubric criteria from the published warehouse and keys from ``keys_dir``."""
        cat = cls()
        for rid, suite, item, system, rep in con.execute(
            "select response_id, suite, item_id, system_id, repetition from dim_responses"
        ).fetchall():
            cat.responses[rid] = suite
            cat.by_name[(suite, item, system, int(rep))] = rid
            cat.response_item[rid] = (suite, item)
        for suite, rubric, version, criterion, lo, hi in con.execute(
            "select distinct suite, rubric_id, rubric_version, criterion, min_score, max_score from dim_rubric_levels"
        ).fetchall():
            cat.criteria[(rubric, int(version), criterion)] = (int(lo), int(hi))
            cat.current_version[rubric] = max(cat.current_version.get(rubric, 0), int(version))
            cat.suite_rubrics.setdefault(suite, set()).add(rubric)
        for suite, item, rubric in con.execute(
            """
            select r.suite, r.item_id, min(f.rubric_id)
            from dim_responses as r
            inner join fct_ratings as f on f.response_id = r.response_id
            group by r.suite, r.item_id
            having count(distinct f.rubric_id) = 1
            """
        ).fetchall():
            cat.item_rubric[(suite, item)] = rubric
        for suite, rater, kind, first_file in con.execute(
            """
            select suite, rater_id, rater_kind, min(source_file)
            from fct_ratings
            where rater_id is not null and rater_kind is not null
            group by suite, rater_id, rater_kind
            order by suite, rater_id, rater_kind desc
            """
        ).fetchall():
            cat.rater_kinds[(suite, rater)] = (kind, f"{first_file} (in the warehouse)")
        cat.keys = read_keys(keys_dir or paths.blind_keys_dir())
        return cat


def read_keys(keys_dir: Path) -> dict[tuple[str, str], dict]:
    keys: dict[tuple[str, str], dict] = {}
    for f in sorted(Path(keys_dir).glob("*.csv")):
        with open(f, encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                keys[(row["packet_id"], row["letter"])] = row
    return keys


def decode_utf8(data: bytes, name: str) -> tuple[str, str | None]:
    """``data`` as text (a UTF-8 BOM dropped) and no problem, or ``""`` and the problem
    ``name:line:-: not UTF-8 (<reason> at byte offset N)``, line being the line of the first bad byte."""
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        return "", f"{name}:{line}:-: not UTF-8 ({exc.reason} at byte offset {exc.start})"


def json_loads(text: str):
    """``json.loads(text)``, faster: msgspec reads it first (about 1.8x faster on a GRADE pack's 500k lines; the same
    values, key order and last-duplicate-wins); what it refuses and Python's json accepts (NaN, Infinity, 1e400, a
    lone surrogate) or refuses too (raising json.JSONDecodeError with Python's message) goes to ``json.loads``."""
    try:
        return _JSON_DECODER.decode(text)
    except msgspec.DecodeError:
        return json.loads(text)


_JSON_DECODER = msgspec.json.Decoder()


def JSON_VALUES(_key, value):  # noqa: N802 - read_rows' marker: keep the JSON values (GRADE packs' responses.jsonl)
    return value


def read_rows(path: Path, jsonl_value=None) -> list[tuple[int, dict]]:
    """Rows of a CSV or JSONL file as (line number, {column: text}); raises ImportRejected when malformed.

    ``jsonl_value(key, value) -> str`` turns a JSON value into text (default: str, None as ""); ``JSON_VALUES``
    keeps each JSON line's object as it is (values as JSON gives them)."""
    path = Path(path)
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportRejected([f"{name}:-:-: cannot read the file ({exc.strerror})"]) from exc
    text, problem = decode_utf8(data, name)
    if problem:
        raise ImportRejected([problem])
    if not text.strip():
        raise ImportRejected([f"{name}:-:-: the file is empty"])
    if path.suffix.lower() in (".jsonl", ".ndjson"):
        rows, problems = [], []
        for i, line in enumerate(text.split("\n"), start=1):  # not splitlines(): U+2028 is legal inside JSON
            line = line.rstrip("\r")
            if not line.strip():
                continue
            try:
                obj = json_loads(line)
            except json.JSONDecodeError as exc:
                problems.append(f"{name}:{i}:-: not valid JSON ({exc.msg}: column {exc.colno})")
                continue
            if not isinstance(obj, dict):
                problems.append(f"{name}:{i}:-: each line must be a JSON object")
                continue
            if jsonl_value is JSON_VALUES:  # (a JSON object's keys are text already)
                rows.append((i, obj))
                continue
            rows.append((i, {str(k): (jsonl_value(k, v) if jsonl_value else "" if v is None else str(v))
                             for k, v in obj.items()}))
        if problems:
            raise ImportRejected(problems)
        return rows
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except csv.Error as exc:
        raise ImportRejected([f"{name}:1:-: malformed CSV header ({exc})"]) from exc
    if len(set(header)) != len(header):
        dupes = sorted({h for h in header if header.count(h) > 1})
        raise ImportRejected([f"{name}:1:{d}: the column appears twice in the header" for d in dupes])
    rows, problems = [], []
    start = reader.line_num + 1  # the line the record being read starts on (a quoted field may span lines)
    try:
        for values in reader:
            line = reader.line_num
            if not any(v.strip() for v in values):
                start = line + 1
                continue
            if len(values) != len(header):
                problems.append(f"{name}:{line}:-: {len(values)} fields, the header has {len(header)}")
                start = line + 1
                continue
            rows.append((line, dict(zip(header, values))))
            start = line + 1
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            problems.append(f"{name}:{start}:-: malformed CSV (a quote opened in this row is never closed)")
        elif start < reader.line_num:  # the row ran on over several lines: most often a quote left open
            problems.append(f"{name}:{start}:-: malformed CSV ({exc}, on line {reader.line_num}; a quote opened "
                            f"in this row may be unclosed)")
        else:
            problems.append(f"{name}:{reader.line_num}:-: malformed CSV ({exc})")
    if problems:
        raise ImportRejected(problems)
    return rows


def existing_keys(store_dir: Path, keys: dict | None = None
                  ) -> tuple[dict[tuple, str], dict[tuple[str, str], tuple[str, str]]]:
    """What the store already holds: (identity of every rating -> 'file:row', for duplicate detection;
    (suite, rater_id) -> (rater_kind, 'file:row' of the rater's first row with it), for the one-kind rule).

    A blind row is identified by the response its packet letter hides (through ``keys``), so a blind and a direct
    rating of the same reply by the same rater, criterion and version are duplicates of each other. An empty
    rater_kind (files of older versions) is human, as the build reads it."""
    seen: dict[tuple, str] = {}
    kinds: dict[tuple[str, str], tuple[str, str]] = {}
    for f in sorted(Path(store_dir).glob("*/*.csv")):
        with open(f, encoding="utf-8-sig", newline="") as fh:
            for i, row in enumerate(csv.DictReader(fh), start=2):
                seen[_identity(row, keys)] = f"{f}:{i}"
                kinds.setdefault((row.get("suite") or f.parent.name, row.get("rater_id") or ""),
                                 (row.get("rater_kind") or "human", f"{f}:{i}"))
    return seen, kinds


def suite_file_duplicates(identities: list[tuple], suites_dir: Path) -> dict[tuple, str]:
    """The ``identities`` (``_identity``: response, rater, criterion, version) that a suite's own ratings files
    already hold, each with ``'<file> row <n>'`` (the file as landed, its n-th data row). Read from the landed
    ratings (``landing/ratings.parquet``) when the landing is current for ``suites_dir`` (the suite files are as
    last landed); {} otherwise: suite files edited since the last build are not compared, and nothing is refused
    for them (the next build reads both, the latest counting)."""
    from evalhouse.suites.land import landing_dir, landing_is_current, suites_fingerprint

    target = landing_dir()
    if not identities or not landing_is_current(suites_fingerprint(Path(suites_dir)), target):
        return {}
    import duckdb
    import pyarrow as pa

    wanted = pa.table({name: [str(i[k]) for i in identities]
                       for k, name in enumerate(("response_id", "rater_id", "criterion", "rubric_version"))})
    with duckdb.connect() as con:
        con.register("wanted", wanted)
        found = con.execute(
            "select w.response_id, w.rater_id, w.criterion, w.rubric_version, "
            "min_by(r.source_file || ' row ' || cast(r.source_row as varchar), r.source_row) "
            "from read_parquet(?) as r join wanted as w on r.response_id = w.response_id "
            "and r.rater_id = w.rater_id and r.criterion = w.criterion "
            "and coalesce(cast(r.rubric_version as varchar), '') = w.rubric_version "
            "group by all", [str(target / "ratings.parquet")]).fetchall()
    return {tuple(row[:4]): row[4] for row in found}


def kind_conflict(kind: str, stored: tuple[str, str] | None, in_files: list[tuple[str, str]],
                  in_warehouse: tuple[str, str] | None, earlier: tuple[str, str] | None = None
                  ) -> tuple[str, str] | None:
    """The first (kind, where) known for a rater in a suite that is not ``kind``, or None when every known kind is
    ``kind`` (a rater has one kind in a suite). Known, in the order named: the store's rows (``stored``: the kind of
    the rater's first store row, ``file:row``), every kind the suite's ratings files give now (``in_files``:
    ``rater_kinds``), the importing file's earlier rows (``earlier``); the published warehouse (``in_warehouse``)
    only when neither the store nor the suite's files know the rater: it was built from them, and may be older."""
    known = [stored, *((k, f"{w} (in the suite's files)") for k, w in in_files), earlier]
    if stored is None and not in_files:
        known.append(in_warehouse)
    return next(((k, w) for k, w in (x for x in known if x) if k != kind), None)


def rater_kind_conflict(suite: str, rater_id: str, kind: str, con=None, store_dir: Path | None = None,
                        suites_dir: Path | None = None) -> tuple[str, str] | None:
    """``kind_conflict`` for one rater about to be written with ``kind``: the store under ``store_dir``, the suite's
    folder under ``suites_dir`` (default ``suites/``) and, when ``con`` is given, the published warehouse
    (fct_ratings)."""
    from evalhouse.suites.check import rater_kinds

    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    stored = existing_keys(store_dir)[1].get((suite, rater_id))
    suites_dir = Path(suites_dir) if suites_dir else paths.project_dir() / "suites"
    in_files = rater_kinds(suites_dir / suite).get(rater_id, [])
    in_warehouse = None
    if con is not None and stored is None and not in_files:
        import duckdb

        try:
            row = con.execute("select rater_kind, min(source_file) from fct_ratings where suite = ? and rater_id = ? "
                              "and rater_kind is not null group by rater_kind order by rater_kind desc limit 1",
                              [suite, rater_id]).fetchone()
        except duckdb.CatalogException:  # a warehouse without ratings (none published yet)
            row = None
        if row:
            in_warehouse = (row[0], f"{row[1]} (in the warehouse)")
    return kind_conflict(kind, stored, in_files, in_warehouse)


# columns every store file must have (files written by older versions lack the judge and reported columns)
STORE_REQUIRED_COLUMNS = ("suite", "response_id", "rater_id", "criterion", "score", "rubric_id", "rubric_version")


def store_file_problems(store_dir: Path | None = None, suites_dir: Path | None = None) -> list[str]:
    """Check the files of the store before dbt reads ``<store>/<suite>/*.csv`` as one table.

    Returns ``file:row:column: message`` problems (file relative to the project folder, e.g.
    ``data/ratings/larkfield/x.csv``): an empty file or one that is not UTF-8, a column that is not one of
    ``STORE_COLUMNS`` (a file copied into the store by hand instead of imported: its values would be lost or
    misread), a column named twice (dbt would read one of them), a required column missing
    (``STORE_REQUIRED_COLUMNS``); and a ratings-like file (``.csv``, ``.jsonl``, ``.json``, ``.tsv``, ``.xlsx`` in
    any case) where dbt does not read it (``file:-:-: ...``): at the top of the store, in a subfolder of a suite
    folder, or not ending in lower-case ``.csv``. Other files (notes, dotfiles) are left alone.

    The store's folder is its rows' suite, as import-ratings writes them: a file in a folder that is no suite
    (no ``<suites_dir>/<folder>/suite.yml``) is a problem (``file:-:-:``), all but the store's column list
    ``_schema/000_header.csv``, which must be the one line of ``STORE_COLUMNS`` (``file:1:-:``, ``file:2:-:``,
    ``_column_list_problems``); so is each row whose ``suite`` is empty or another suite (``file:row:suite:``,
    row = the record's number, the header is row 1; the first 5 per file, then a count), and each whose
    ``rater_id`` is not a rater id (``rater_id_problem``, ``file:row:rater_id:``). A wrong suite would build a
    phantom suite or change another suite's marts; that a rating's response belongs to its suite is dbt's test
    ``assert_store_ratings_in_their_response_suite`` (the responses are not known before the build).
    ``suites_dir`` defaults to the project's ``suites/`` (beside ``data/``).

    Empty when every file is fine; store files of older versions, without the judge and reported columns, are
    fine."""
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    suites_dir = Path(suites_dir) if suites_dir else store_dir.parent.parent / "suites"
    problems: list[str] = []
    if not store_dir.is_dir():
        return problems
    how = "store files are written by `evalhouse import-ratings`: move this file out"
    for f in sorted(p for p in store_dir.rglob("*") if p.is_file()):
        name = f.relative_to(store_dir.parent.parent).as_posix()
        read_by_dbt = f.parent.parent == store_dir and f.suffix == ".csv"
        if not read_by_dbt:
            if f.suffix.lower() in (".csv", ".jsonl", ".json", ".tsv", ".xlsx") and not f.name.startswith("."):
                problems.append(f"{name}:-:-: not read: the build reads only data/ratings/<suite>/*.csv; {how} "
                                "and import it")
            continue
        folder = f.parent.name
        column_list = folder == "_schema" and f.name == "000_header.csv"
        if folder == "_schema" and not column_list:
            problems.append(f"{name}:-:-: only the store's column list 000_header.csv belongs in "
                            f"data/ratings/_schema/; {how}")
            continue
        if not column_list and not (suites_dir / folder / "suite.yml").is_file():
            known = ", ".join(sorted(p.parent.name for p in suites_dir.glob("*/suite.yml"))) or "none"
            problems.append(f"{name}:-:-: {folder!r} is no suite (no {suites_dir.name}/{folder}/suite.yml; suites: "
                            f"{known}); the store keeps a suite's ratings in data/ratings/<suite>/; {how}")
            continue
        # the column list is the one file here not written by an import: it is written back, not moved out
        advice = f"the store's column list is the one line {','.join(STORE_COLUMNS)}: write it back" \
            if column_list else how
        data = f.read_bytes()  # whole: dbt reads every byte (build_state hashes them all as well)
        text, problem = decode_utf8(data, name)
        if problem:
            problems.append(f"{problem}; {advice}")
            continue
        header = next(csv.reader(io.StringIO(text, newline="")), None)
        if not header:
            problems.append(f"{name}:1:-: no header line (an empty file); {advice}")
            continue
        if column_list:
            problems += _column_list_problems(name, text, header, advice)
            continue
        for col in dict.fromkeys(header):
            if col not in STORE_COLUMNS:
                problems.append(f"{name}:1:{col}: not a column of the ratings store (its columns: "
                                f"{', '.join(STORE_COLUMNS)}); {how} and import it")
            elif header.count(col) > 1:
                problems.append(f"{name}:1:{col}: the column is named {header.count(col)} times; {how} and import it")
        problems += [f"{name}:1:{col}: required column missing" for col in STORE_REQUIRED_COLUMNS
                     if col not in header]
        problems += _value_problems(name, data, folder, header)
    return problems


def _column_list_problems(name: str, text: str, header: list[str], how: str) -> list[str]:
    """Problems of the store's column list ``_schema/000_header.csv`` (its text, its first line parsed): dbt reads it
    with every store file so that files of older versions, without the later columns, still read; it must name
    every column (once) and hold no row."""
    out = []
    if header != list(STORE_COLUMNS):
        missing = [c for c in STORE_COLUMNS if c not in header]
        other = [c for c in dict.fromkeys(header) if c not in STORE_COLUMNS or header.count(c) > 1]
        out.append(f"{name}:1:-: the store's column list is not the store's columns"
                   + (f" (missing: {', '.join(missing)})" if missing else "")
                   + (f" (not a column or named twice: {', '.join(other)})" if other else "")
                   + ("" if missing or other else " (in another order: the build's table takes its column order)")
                   + f"; {how}")
    if any(row for row in itertools.islice(csv.reader(io.StringIO(text, newline="")), 1, None)):
        out.append(f"{name}:2:-: the store's column list holds its header line only (dbt would read the rows below "
                   f"it as ratings of no suite); {how}")
    return out


def _value_problems(name: str, data: bytes, folder: str, header: list[str], shown: int = 5) -> list[str]:
    """``file:row:column:`` problems for the rows of a store file (its bytes, UTF-8 with a header) whose suite is
    empty or not ``folder``, whose rater_id is not a rater id (``rater_id_problem``; a rater id becomes a file
    name part and an app label), whose rubric_id is empty or whose rubric_version is not a whole number: per column
    the first ``shown``, then one line counting the rest. Only these
    columns are parsed, those the header names once (Arrow's CSV reader: quoted newlines and a BOM are read as dbt
    reads them)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pacsv

    columns = [c for c in ("suite", "rater_id", "rubric_id", "rubric_version") if header.count(c) == 1]
    if not columns:
        return []
    try:
        table = pacsv.read_csv(io.BytesIO(data), convert_options=pacsv.ConvertOptions(
            include_columns=columns, column_types=dict.fromkeys(columns, pa.string()), strings_can_be_null=False,
            quoted_strings_can_be_null=False))
    except pa.ArrowInvalid as exc:  # a row with another number of fields: dbt could not read it either
        return [f"{name}:-:-: not read as CSV ({exc}); store files are written by `evalhouse import-ratings`: move "
                "this file out"]
    how = "store files are written by `evalhouse import-ratings`: move this file out and import it"
    out = []
    if "suite" in columns:
        suites = table.column("suite").combine_chunks()
        wrong = pc.indices_nonzero(pc.not_equal(suites, folder)).to_pylist()
        for i in wrong[:shown]:
            value = suites[i].as_py()
            what = "empty suite" if not value.strip() else f"suite {value!r}"
            out.append(f"{name}:{i + 2}:suite: {what} in the folder of suite {folder!r}; a store file's rows are "
                       f"its folder's suite ({how})")
        if len(wrong) > shown:
            out.append(f"{name}:-:suite: {len(wrong) - shown} more row(s) of another suite than the folder's "
                       f"{folder!r}")
    if "rater_id" in columns:
        raters = table.column("rater_id").combine_chunks()
        bad = {r: why for r in pc.unique(raters).to_pylist() if (why := rater_id_problem(r))}  # a few distinct ids
        wrong = pc.indices_nonzero(pc.is_in(raters, pa.array(list(bad), pa.string()))).to_pylist() if bad else []
        out += [f"{name}:{i + 2}:rater_id: {bad[raters[i].as_py()]} ({how})" for i in wrong[:shown]]
        if len(wrong) > shown:
            out.append(f"{name}:-:rater_id: {len(wrong) - shown} more row(s) whose rater_id is not a rater id")
    # an import always writes both (a missing one made every rating of the row unscored, and an empty rubric_id
    # failed the build at a reliability mart's test that named neither the file nor the column)
    for col, pattern, what in (("rubric_id", r".*\S.*", "empty rubric_id"),
                               ("rubric_version", r"\s*[0-9]+\s*", "rubric_version is not a whole number")):
        if col not in columns:
            continue
        values = table.column(col).combine_chunks()
        wrong = pc.indices_nonzero(pc.invert(pc.match_substring_regex(values, f"^(?s:{pattern})$"))).to_pylist()
        out += [f"{name}:{i + 2}:{col}: {what} ({values[i].as_py()!r}; {how})" for i in wrong[:shown]]
        if len(wrong) > shown:
            out.append(f"{name}:-:{col}: {len(wrong) - shown} more row(s) with {what}")
    return out


def _identity(row: dict, keys: dict | None = None) -> tuple:
    target = row.get("response_id") or ""
    if not target and keys is not None:
        target = (keys.get((row.get("packet_id", ""), row.get("letter", ""))) or {}).get("response_id", "")
    target = target or f"{row.get('packet_id', '')}#{row.get('letter', '')}"
    return (target, row.get("rater_id", ""), row.get("criterion", ""), str(row.get("rubric_version", "")))


def validate(path: Path, catalog: Catalog, rater: str | None = None, rater_kind: str | None = None,
             store_dir: Path | None = None, correction: bool = False, suites_dir: Path | None = None) -> list[dict]:
    """Validate every row of ``path``; return the store rows, or raise ImportRejected listing every problem.

    ``correction=True`` accepts ratings that repeat a stored one (same reply, rater, criterion and version): they are
    appended as corrections, the stored rating stays, and the latest counts for scoring. Repeats within the file
    are always rejected.
    A rater's kind must agree with every kind the store, the suite's ratings files under ``suites_dir`` (default
    ``suites/``; as they are now, built or not) and the file's own earlier rows give the rater (``kind_conflict``)."""
    name = str(path)
    if rater_kind is not None and rater_kind not in RATER_KINDS:
        raise ImportRejected([f"{name}:-:rater_kind: --rater-kind {rater_kind!r} is not one of "
                              f"{', '.join(RATER_KINDS)}"])
    rows = read_rows(Path(path))
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    stored, stored_kinds = existing_keys(store_dir, catalog.keys)
    from evalhouse.suites.check import rater_kinds

    suites_dir = Path(suites_dir) if suites_dir else paths.project_dir() / "suites"
    suite_kinds: dict[str, dict] = {}  # suite -> rater_kinds of its folder, read at its first row
    in_file: dict[tuple[str, str], tuple[str, str]] = {}  # the kind of each rater's first row in this file
    if rows:
        _check_header(name, rows, rater)
    problems: list[str] = []
    out: list[dict] = []
    seen_in_file: dict[tuple, int] = {}
    reported_by_reply: dict[tuple, tuple[int, str]] = {}
    rated_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")
    for line, row in rows:
        def bad(col: str, msg: str, line: int = line) -> None:
            problems.append(f"{name}:{line}:{col}: {msg}")

        n_problems = len(problems)
        rec = _rating_row(row, catalog, rater, rater_kind, bad)
        if rec is None:
            continue
        rec["rated_at"] = rated_at
        # the one-kind rule, on rows whose rater cells are fine (a cell that differs from --rater-kind says so already)
        if len(problems) == n_problems and rec["rater_id"]:
            key = (rec["suite"], rec["rater_id"])
            if rec["suite"] not in suite_kinds:
                suite_kinds[rec["suite"]] = rater_kinds(suites_dir / rec["suite"])
            other = kind_conflict(rec["rater_kind"], stored_kinds.get(key),
                                  suite_kinds[rec["suite"]].get(rec["rater_id"], []), catalog.rater_kinds.get(key),
                                  in_file.get(key))
            if other:
                bad("rater_kind", f"rater {rec['rater_id']!r} is {rec['rater_kind']!r} here and {other[0]!r} at "
                                  f"{other[1]}; a rater has one kind in a suite (import these ratings under another "
                                  "rater id)")
                continue
            in_file.setdefault(key, (rec["rater_kind"], f"{name}:{line}"))  # a refused row sets no kind
        ident = _identity(rec, catalog.keys)
        if ident in seen_in_file:
            bad("criterion", f"duplicate rating: same reply, rater, criterion and version as row {seen_in_file[ident]}")
            continue
        if ident in stored and not correction:
            bad("criterion", f"duplicate rating: already stored at {stored[ident]} (to correct it, import with "
                             "--correction)")
            continue
        seen_in_file[ident] = line
        _check_reported_consistent(row, rec, ident, line, reported_by_reply, bad)
        out.append(rec)
    if not correction and seen_in_file:  # the rows that passed every other check
        for ident, where in sorted(suite_file_duplicates(list(seen_in_file), suites_dir).items(),
                                   key=lambda kv: seen_in_file[kv[0]]):
            problems.append(f"{name}:{seen_in_file[ident]}:criterion: duplicate rating: already in the suite's own "
                            f"ratings at {where} (to correct it, import with --correction)")
    if problems:
        raise ImportRejected(problems)
    if not out:
        raise ImportRejected([f"{name}:1:-: no ratings in the file"])
    suites = sorted({r["suite"] for r in out})
    if len(suites) > 1:
        raise ImportRejected([f"{name}:1:-: ratings of several suites ({', '.join(suites)}); "
                              "import one suite per file"])
    return out


def _check_header(name: str, rows: list[tuple[int, dict]], rater: str | None) -> None:
    """Raise ImportRejected when the header cannot identify replies or lacks criterion, score or a rater."""
    cols = set(rows[0][1])
    if not ({"packet_id", "letter"} <= cols or "response_id" in cols or {"suite", "item_id", "system_id"} <= cols):
        raise ImportRejected([
            f"{name}:1:-: the header needs packet_id+letter (blind), response_id, or suite+item_id+system_id"
        ])
    problems = [f"{name}:1:{col}: required column missing" for col in ("criterion", "score") if col not in cols]
    # a column nothing reads would be dropped without a word (a typo such as 'reasons' loses every reason)
    problems += [f"{name}:1:{col}: " + ("not read: the store records the import time as rated_at; remove the column"
                                        if col == "rated_at" else
                                        f"unknown column; the columns read are {', '.join(INPUT_COLUMNS)}")
                 for col in dict.fromkeys(c for _, row in rows for c in row) if col not in INPUT_COLUMNS]
    if rater is None and "rater_id" not in cols:
        problems.append(f"{name}:1:rater_id: required column missing (or pass --rater)")
    elif rater is None and not any((r.get("rater_id") or "").strip() for _, r in rows):
        problems.append(f"{name}:1:rater_id: empty on every row ({len(rows)} rows); fill it or pass --rater")
    if rater is not None and rater_id_problem(rater.strip()):
        problems.append(f"{name}:-:rater_id: --rater {rater_id_problem(rater.strip())}")
    if problems:
        raise ImportRejected(problems)


def _get(row: dict, col: str) -> str:
    return (row.get(col) or "").strip()


def _reported_columns(row: dict) -> list[str]:
    """The rater's own decision columns given on this row (REPORTED_DECISION_COLUMNS order)."""
    return [c for c in REPORTED_DECISION_COLUMNS if _get(row, c)]


def _rating_row(row: dict, catalog: Catalog, rater: str | None, rater_kind: str | None, bad) -> dict | None:
    """One file row as a store row (without rated_at), or None when a problem stops it (each reported by ``bad``).
    Rater and reported fields are checked first; then the reply, rubric version, criterion and score."""
    rec = dict.fromkeys(STORE_COLUMNS, "")
    _rater_fields(row, rec, rater, rater_kind, bad)
    target = _reply_fields(row, rec, catalog, bad)
    if target is None:
        return None
    rubric_id, version = target
    if not rubric_id or rubric_id not in catalog.current_version:
        bad("rubric_id", f"unknown rubric {rubric_id!r}")
        return None
    try:
        version_n = int(version) if version else catalog.current_version[rubric_id]
    except ValueError:
        bad("rubric_version", f"{version!r} is not a whole number")
        return None
    criterion = _get(row, "criterion")
    scale = catalog.criteria.get((rubric_id, version_n, criterion))
    if scale is None:
        known = sorted({c for r, v, c in catalog.criteria if r == rubric_id and v == version_n})
        if not known:
            bad("rubric_version", f"rubric {rubric_id!r} has no version {version_n}")
        else:
            bad("criterion", f"unknown criterion {criterion!r}; expected one of {', '.join(known)}")
        return None
    score_text = _get(row, "score")
    if not re.fullmatch(r"-?[0-9]+", score_text):
        bad("score", "missing score" if not score_text else f"{score_text!r} is not a whole number")
        return None
    score = int(score_text)
    if not scale[0] <= score <= scale[1]:
        bad("score", f"{score} is outside {criterion}'s scale {scale[0]}-{scale[1]}")
        return None
    rec.update(criterion=criterion, score=str(score), rubric_id=rubric_id, rubric_version=str(version_n))
    return rec


def _rater_fields(row: dict, rec: dict, rater: str | None, rater_kind: str | None, bad) -> None:
    """Fill rater_id, rater_kind, reason, reported_decision and reported_total of ``rec``; report bad values."""
    # an option fills the column; it never replaces a filled cell that says otherwise (whose rating it is)
    for column, option, flag in (("rater_id", rater, "--rater"), ("rater_kind", rater_kind, "--rater-kind")):
        if option is not None and _get(row, column) and _get(row, column).strip() != option.strip():
            bad(column, f"{_get(row, column).strip()!r} differs from {flag} {option.strip()!r}; "
                        f"empty the column or leave out {flag}")
    rec["rater_id"] = (rater or _get(row, "rater_id")).strip()
    if rater_id_problem(rec["rater_id"]):
        bad("rater_id", rater_id_problem(rec["rater_id"]))
    kind = rater_kind or _get(row, "rater_kind") or "human"
    if kind not in RATER_KINDS:
        bad("rater_kind", f"{kind!r} is not one of {', '.join(RATER_KINDS)}")
    rec["rater_kind"] = kind
    rec["reason"] = _get(row, "reason")
    reported = _reported_columns(row)
    if len(reported) > 1:
        bad(reported[1], f"both {' and '.join(reported)} are given; give one")
    elif reported:
        word = _DECISION_WORDS.get(" ".join(_get(row, reported[0]).lower().split()))
        if word is None:
            bad(reported[0], f"{_get(row, reported[0])!r} is not true/false, yes/no, 1/0 or pass/fail")
        rec["reported_decision"] = word or ""
    total = _get(row, "total")
    if total:
        if re.fullmatch(r"-?[0-9]+", total):
            rec["reported_total"] = str(int(total))
        else:
            bad("total", f"{total!r} is not a whole number")


def _reply_fields(row: dict, rec: dict, catalog: Catalog, bad) -> tuple[str, str] | None:
    """Fill the reply fields of ``rec`` (suite, packet_id + letter or response_id, is_blind) from a blind packet
    letter, a response id or suite + item + system (+ repetition). Returns (rubric_id, rubric_version) as given or
    implied ('' when neither), or None when the reply cannot be found (reported by ``bad``)."""
    rubric_id, version = _get(row, "rubric_id"), _get(row, "rubric_version")
    if _get(row, "packet_id") or _get(row, "letter"):
        packet, letter = _get(row, "packet_id"), _get(row, "letter")
        key = catalog.keys.get((packet, letter))
        if key is None:
            if not any(p == packet for p, _ in catalog.keys):
                bad("packet_id", f"unknown packet {packet!r}")
            else:
                bad("letter", f"packet {packet!r} has no reply {letter!r}")
            return None
        # the rater read the reply under the packet's rubric version, and the letter names the reply: a row that says
        # otherwise is refused (it was stored under another version, or its response_id silently dropped: trial)
        given = _get(row, "response_id")
        if given and given != key["response_id"]:
            bad("response_id", f"packet {packet!r} letter {letter!r} is another reply: leave response_id empty in "
                               "a blind rating (the letter says which reply it is)")
            return None
        for column, value in (("rubric_id", rubric_id), ("rubric_version", version)):
            if value and value != str(key[column]):
                bad(column, f"packet {packet!r} was exported under rubric {key['rubric_id']!r} version "
                            f"{key['rubric_version']}, the anchors its rater read, not {value!r} (leave it empty)")
                return None
        rec.update(suite=key["suite"], packet_id=key["packet_id"], letter=key["letter"], is_blind="true")
        return rubric_id or key["rubric_id"], version or key["rubric_version"]
    response_id = _get(row, "response_id") or _response_by_name(row, catalog, bad)
    if not response_id:
        return None
    if response_id not in catalog.responses:
        bad("response_id", f"unknown response {response_id!r}")
        return None
    blind_flag = _get(row, "is_blind").lower() or "false"
    if blind_flag not in ("true", "false"):
        bad("is_blind", f"{_get(row, 'is_blind')!r} is not true or false")
        return None
    rec.update(suite=catalog.responses[response_id], response_id=response_id, is_blind=blind_flag)
    if not rubric_id:
        rubric_id, why = catalog.rubric_for(*catalog.response_item[response_id])
        if rubric_id is None:
            bad("rubric_id", why)
            return None
    return rubric_id, version


def _response_by_name(row: dict, catalog: Catalog, bad) -> str:
    """The response id named by suite + item_id + system_id (+ repetition, default 1), or '' (reported)."""
    suite, item, system = _get(row, "suite"), _get(row, "item_id"), _get(row, "system_id")
    try:
        rep = int(_get(row, "repetition") or 1)
    except ValueError:
        bad("repetition", f"{_get(row, 'repetition')!r} is not a whole number")
        return ""
    response_id = catalog.by_name.get((suite, item, system, rep), "")
    if not response_id:
        if not any(k[0] == suite for k in catalog.by_name):
            suites = sorted({k[0] for k in catalog.by_name})
            bad("suite", f"unknown suite {suite!r}; the warehouse has {', '.join(suites) or 'none'} (a suite added "
                         "under suites/ is known once a `make build` has published it)")
        elif not any(k[0] == suite and k[1] == item for k in catalog.by_name):
            bad("item_id", f"unknown item {item!r} in suite {suite!r}")
        else:
            bad("system_id", f"no response of model run {system!r} to item {item!r}")
    return response_id


def _check_reported_consistent(row: dict, rec: dict, ident: tuple, line: int,
                               reported_by_reply: dict[tuple, tuple[int, str]], bad) -> None:
    """The rater's own decision and total must be the same on every row of one reply (rater, version)."""
    reported = _reported_columns(row)
    reply = ident[:2] + ident[3:]  # the reply, rater and version, over all criteria
    for col in ("reported_decision", "reported_total"):
        first = reported_by_reply.setdefault((reply, col), (line, rec[col]))
        if first[1] != rec[col]:
            bad({"reported_decision": reported[0] if reported else "ready"}.get(col, "total"),
                f"the rater's own {col.split('_')[1]} differs from row {first[0]} of the same reply "
                f"({first[1] or 'empty'!r} there, {rec[col] or 'empty'!r} here)")


def append(rows: list[dict], store_dir: Path | None = None, label: str = "") -> Path:
    """Write ``rows`` as a new store file; never replaces an existing file. Returns the new file's path."""
    if not rows:
        raise ValueError("nothing to append")
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    suite = rows[0]["suite"]
    target_dir = store_dir / suite
    target_dir.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO(newline="")
    writer = csv.DictWriter(buf, fieldnames=STORE_COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({**{k: r.get(k, "") for k in STORE_COLUMNS}, "store_row": i} for i, r in enumerate(rows, 1))
    content = buf.getvalue().encode("utf-8")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    digest = hashlib.sha256(content).hexdigest()[:10]
    safe_label = _SAFE.sub("-", label or rows[0]["rater_id"])[:40]
    target = target_dir / f"{stamp}_{safe_label}_{digest}.csv"
    write_new(target, content)  # FileExistsError instead of replacing an existing file
    return target


@contextlib.contextmanager
def store_lock(store_dir: Path | None = None):
    """Exclusive lock on the store folder (``flock`` on the folder itself: no lock file is created), so that the
    duplicate check and the append of two concurrent imports (two browser tabs, the app and the CLI) cannot
    interleave. Blocks until the other import has written its file."""
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    store_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(store_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield store_dir
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def import_ratings(path: Path, catalog: Catalog, rater: str | None = None, rater_kind: str | None = None,
                   store_dir: Path | None = None, correction: bool = False,
                   suites_dir: Path | None = None) -> tuple[Path, int]:
    """Validate ``path`` and append it to the store, all or nothing. Returns (new store file, rows written).
    Validation (including the duplicate check against the store) and the append run under ``store_lock``."""
    with store_lock(store_dir):
        rows = validate(path, catalog, rater=rater, rater_kind=rater_kind, store_dir=store_dir, correction=correction,
                        suites_dir=suites_dir)
        return append(rows, store_dir=store_dir, label=rows[0]["rater_id"]), len(rows)
