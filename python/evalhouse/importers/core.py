"""The mapping core shared by every importer: a tool's log, read into neutral records, becomes new suite files.

A reader (one module per tool) turns one log file into a :class:`RunLog`: one :class:`Reply` per output (sample x
epoch / repeat), each with the tool's own :class:`ToolScore` s. :func:`import_log` maps that into the suite contract
(``suites/<suite>/``):

- ``items``: one per distinct input text; ``item_id`` = ``i`` + the first 16 hex digits of SHA-256 of the input,
  so the same prompt run by two tools is one item. The tool's own sample id stays in ``metadata``.
- ``gold``: each target as a ``string_fact`` (``gold_key`` ``target``, ``target_2``, ...); the targets joined by
  newlines are the item's ``reference_text``.
- ``responses``: one per output; ``raw_output`` byte-exact; ``system_id`` = the model (a second log of a model the
  suite already has gets `` [<run_label>]`` appended, so two runs never merge); generation settings in ``metadata``.
  ``response_id`` = ``<suite>:<run_label>:<item_id>:<repetition>`` plus the system when one log holds several.
- ``ratings``: one per tool score, under one rubric per scorer that the importer adds to ``suite.yml``
  (rubric ``<suite>_<tool>_<scorer>``, one criterion named for the scorer): pass/fail and C/I grades on a 0-1 scale,
  C/P/I grades on 0-2, other numbers in [0, 1] as whole percents on 0-100 (the exact value kept in ``metadata``),
  other integers on their observed range. Pass/fail and letter rubrics get ``ready_gate: [<criterion>]`` so
  ``n_ready`` in ``fct_model_run_scores`` is the tool's own pass count.

Every import writes new files only (``<table>/<import_id>.parquet``): the whole suite, with the new files and the new
``suite.yml``, is first assembled in a staging copy and checked with ``check_suite(..., new_files=...)`` (single rows
in the new files; keys, references and duplicate ratings across every file); only when it has no problem do
the files get their names (``files.write_new``) and ``suite.yml`` is replaced. A file whose SHA-256 is already in the
suite's responses adds nothing.
"""
from __future__ import annotations

import copy
import dataclasses
import datetime as _dt
import hashlib
import json
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from evalhouse import files
from evalhouse.suites.contract import SUITE_NAME, TABLES

__all__ = ["ToolScore", "Reply", "RunLog", "LogRejected", "ImportResult", "import_log", "sha256_file", "read_json_log",
           "item_id_for", "slug"]


class LogRejected(ValueError):
    """A log that cannot be imported: the message names the file and, where it applies, the sample."""


@dataclass
class ToolScore:
    """One score a tool gave one output.

    value: bool (pass/fail), a grade letter C / P / I / N (inspect-ai), or a number.
    kind: ``program`` for deterministic scorers, ``judge`` for model-graded ones.
    """
    scorer: str
    value: Any
    kind: str = "program"
    reason: str | None = None
    judge_model: str | None = None
    metadata: dict | None = None


@dataclass
class Reply:
    """One output of one system on one input (x repetition), as read from a tool's log."""
    ref: str                      # how an error names the sample ("sample id=q01 epoch=1")
    input_text: str
    output: str
    model: str
    targets: list[str] = field(default_factory=list)
    repetition: int = 1
    sample_id: str | None = None
    task_name: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    latency_ms: float | None = None
    ttft_ms: float | None = None
    cost: float | None = None
    cost_currency: str | None = None
    metadata: dict = field(default_factory=dict)
    scores: list[ToolScore] = field(default_factory=list)
    raw_output: str | None = None  # when the raw output differs from the reply text (lm-eval log-likelihoods)


@dataclass
class RunLog:
    """One log file read by a tool's reader."""
    tool: str
    tool_version: str | None
    eval_id: str | None
    task_name: str | None
    replies: list[Reply]
    settings: dict = field(default_factory=dict)      # run-level generation settings, into responses.metadata
    unknown_fields: set[str] = field(default_factory=set)
    default_label: str | None = None
    source_files: list[Path] = field(default_factory=list)  # the files hashed as the source (default: the PATH)


@dataclass
class ImportResult:
    suite: str
    import_id: str | None
    run_label: str | None
    counts: dict[str, int]
    already_imported: bool = False
    unknown_fields: list[str] = field(default_factory=list)
    new_rubrics: list[str] = field(default_factory=list)
    systems: list[str] = field(default_factory=list)
    # the log's own run label (its eval id), when another file of the suite had it: this file became a new run
    label_taken: str | None = None


# ---------------------------------------------------------------- small pure helpers

def read_json_log(path: Path):
    """A log file parsed whole as one JSON document, as ``json`` reads it; LogRejected naming the file (and the line
    and column of a JSON error) when it is not valid JSON or not UTF-8."""
    import json

    try:
        with open(path, "rb") as fh:
            data = fh.read()
        if data[:4] == b"PK\x03\x04":  # a zip archive, not JSON: an inspect-ai .eval log, most likely
            raise LogRejected(f"{path}: a zip archive, not a JSON log (an inspect-ai .eval log is read with --from "
                              "inspect)")
        return json.loads(data)
    except json.JSONDecodeError as exc:
        raise LogRejected(f"{path}: not valid JSON ({exc.msg}: line {exc.lineno} column {exc.colno}); is the "
                          f"file truncated?") from None
    except UnicodeDecodeError as exc:
        raise LogRejected(f"{path}: not UTF-8 ({exc})") from None


def sha256_file(path: Path) -> str:
    """SHA-256 of a file's bytes, hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def item_id_for(input_text: str) -> str:
    """``i`` + 16 hex digits of SHA-256 of the input text (UTF-8): the same prompt is the same item in any tool."""
    return "i" + hashlib.sha256(input_text.encode("utf-8")).hexdigest()[:16]


def slug(text: str) -> str:
    """Lower-case letters, digits and underscores, starting with a letter (rubric and criterion names)."""
    s = re.sub(r"[^a-z0-9]+", "_", str(text).lower()).strip("_")
    return s if s and s[0].isalpha() else f"s_{s}" if s else "score"


_LETTERS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}


def _scale_of(values: list) -> tuple[str, int, int]:
    """The scale a scorer's values go on: ('binary', 0, 1) | ('letters', 0, 2) | ('percent', 0, 100) |
    ('integer', lo, hi); ('unmapped', 0, 0) when a value is neither a number nor a grade letter."""
    if all(isinstance(v, bool) or v in (0, 1) or v in ("C", "I") for v in values):
        return "binary", 0, 1
    if all(isinstance(v, str) and v in _LETTERS for v in values):
        return "letters", 0, 2
    nums = [v for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if len(nums) != len(values) or any(v != v for v in nums):
        return "unmapped", 0, 0
    if all(float(v).is_integer() for v in nums):
        lo, hi = int(min(min(nums), 0)), int(max(nums))
        return ("integer", lo, hi) if hi > lo else ("binary", 0, 1)
    if all(0 <= v <= 1 for v in nums):
        return "percent", 0, 100
    return "unmapped", 0, 0


def _to_level(value, scale: str) -> int:
    if scale == "binary":
        return 1 if value is True or value == 1 or value == "C" else 0
    if scale == "letters":
        return {"C": 2, "P": 1, "I": 0, "N": 0}[value]
    if scale == "percent":
        return int(round(float(value) * 100))
    return int(value)


def _rubric_for(suite: str, tool: str, scorer: str, scale: str, lo: int, hi: int, kind: str, date: str) -> dict:
    crit = slug(scorer)
    if scale == "binary":
        levels = [{"level": 1, "anchor": f"Passes {scorer}"}, {"level": 0, "anchor": f"Fails {scorer}"}]
    elif scale == "letters":
        levels = [{"level": 2, "anchor": "Correct (C)"}, {"level": 1, "anchor": "Partially correct (P)"},
                  {"level": 0, "anchor": "Incorrect or no answer (I / N)"}]
    elif scale == "percent":
        levels = [{"level": 100, "anchor": f"{scorer} = 1"}, {"level": 0, "anchor": f"{scorer} = 0"}]
    else:
        levels = [{"level": hi, "anchor": f"{scorer} = {hi}"}, {"level": lo, "anchor": f"{scorer} = {lo}"}]
    rubric = {
        "rubric_id": slug(f"{suite}_{tool}_{scorer}"),
        "title": f"{tool} scorer {scorer} ({'model-graded' if kind == 'judge' else 'deterministic'})",
        "criteria": [{"criterion": crit, "description": f"The tool's own {scorer} score, as imported.",
                      "min_score": lo, "max_score": hi, "direction": "higher", "levels": levels}],
        "versions": [{"version": 1, "effective_from": date, "change_note": f"Added by evalhouse import-runs "
                      f"--from {tool}"}],
    }
    if scale in ("binary", "letters"):
        rubric["decision_rule"] = {"ready_gate": [crit]}
    return rubric


_JSON = json.JSONEncoder(ensure_ascii=False, sort_keys=True, default=str)  # json.dumps(obj, ...) with these
_SCALARS = (str, int, bool, type(None))


def _clean_json(obj, memo: dict | None = None) -> str | None:
    """``obj`` as JSON text (keys sorted), None when empty. With ``memo``, the text of a dict of text, integers,
    booleans and None is kept by its items (with their types: 1, 1.0 and True are different JSON), so the many
    ratings with the same metadata are encoded once."""
    if not obj:
        return None
    if memo is None or not all(type(v) in _SCALARS for v in obj.values()):
        return _JSON.encode(obj)
    key = tuple((k, type(v), v) for k, v in obj.items())
    text = memo.get(key)
    if text is None:
        text = memo[key] = _JSON.encode(obj)
    return text


# ---------------------------------------------------------------- existing suite state

def _existing(folder: Path, table: str, columns: list[str]) -> dict[str, list]:
    """Selected columns of a table's existing files (Parquet, CSV, JSONL), as lists of text."""
    out: dict[str, list] = {c: [] for c in columns}
    paths = []
    if (folder / table).is_dir():
        paths += sorted(p for p in (folder / table).iterdir() if p.suffix.lower() in (".parquet", ".csv", ".jsonl")
                        and not p.name.startswith("."))
    paths += [folder / f"{table}{s}" for s in (".parquet", ".csv", ".jsonl") if (folder / f"{table}{s}").is_file()]
    for p in paths:
        if p.suffix.lower() == ".parquet":
            names = pq.read_schema(p).names
            t = pq.read_table(p, columns=[c for c in columns if c in names])
            n = t.num_rows
            for c in columns:
                out[c] += [None if v is None else str(v) for v in t.column(c).to_pylist()] if c in names else [None] * n
        elif p.suffix.lower() == ".csv":
            import csv

            with open(p, encoding="utf-8-sig", newline="") as fh:
                for row in csv.DictReader(fh):
                    for c in columns:
                        out[c].append(row.get(c) or None)
        else:
            with open(p, encoding="utf-8-sig") as fh:
                for line in fh:
                    if line.strip():
                        row = json.loads(line)
                        for c in columns:
                            v = row.get(c)
                            out[c].append(None if v in (None, "") else str(v))
    return out


# ---------------------------------------------------------------- the import

def import_log(log: RunLog, source: Path, sha: str, suite: str, root: Path, run_label: str | None = None,
               now: _dt.datetime | None = None, consume: bool = False) -> ImportResult:
    """Map ``log`` (read from ``source``, whose SHA-256 is ``sha``) into ``root/<suite>/`` as new files.

    Raises LogRejected when the log is unusable or the resulting suite fails ``check_suite`` (nothing is written).
    Returns counts of the rows added per table; ``already_imported`` when a response of the suite already has this
    ``source_sha256`` (nothing is written). ``consume``: empty ``log.replies`` once they are mapped, so a large log's
    replies are freed before the rows are written and checked.
    """
    if not SUITE_NAME.match(suite):
        raise LogRejected(f"suite name {suite!r}: use lower-case letters, digits and underscores, starting with a "
                          f"letter")
    if not log.replies:
        raise LogRejected(f"{source}: the log has no samples with output")
    folder = Path(root) / suite
    now = (now or _dt.datetime.now(_dt.timezone.utc)).replace(microsecond=0)
    stamp = now.strftime("%Y-%m-%dT%H:%M:%SZ")

    prev = _existing(folder, "responses", ["source_sha256", "run_label", "system_id", "response_id"]) \
        if folder.is_dir() else {"source_sha256": [], "run_label": [], "system_id": [], "response_id": []}
    if sha in set(prev["source_sha256"]):
        return ImportResult(suite, None, None, {t: 0 for t in ("items", "gold", "responses", "ratings")},
                            already_imported=True, unknown_fields=sorted(log.unknown_fields))

    labels = set(filter(None, prev["run_label"]))
    label = run_label or log.default_label or f"{log.tool}-{sha[:8]}"
    label = re.sub(r"\s+", "-", label.strip())
    if run_label and label in labels:
        raise LogRejected(f"{source}: run label {label!r} is already used in suite {suite!r}; choose another "
                          f"--run-label (imports never overwrite)")
    base, n = label, 2
    while label in labels:
        label, n = f"{base}-{n}", n + 1
    import_id = slug(label if label.endswith(sha[:8]) else f"{label}_{sha[:8]}")

    # system_id per model: a model the suite already has from another run gets the run label appended.
    taken = set(filter(None, prev["system_id"]))
    models = sorted({r.model for r in log.replies})
    system_of = {m: (f"{m} [{label}]" if m in taken else m) for m in models}

    old_items = _existing(folder, "items", ["item_id", "reference_text"]) if folder.is_dir() else \
        {"item_id": [], "reference_text": []}
    old_ref = dict(zip(old_items["item_id"], old_items["reference_text"]))

    # The new rows, column by column (a column of one value for every row is filled in when the table is built).
    items = _Columns(["item_id", "input_text", "reference_text", "task", "metadata", "task_name"])
    gold = _Columns(["item_id", "gold_key", "gold_value"])
    responses = _Columns(["response_id", "item_id", "system_id", "repetition", "response_text", "raw_output",
                          "input_tokens", "output_tokens", "total_tokens", "latency_ms", "ttft_ms", "cost",
                          "cost_currency", "metadata", "task_name"])
    ratings = []
    seen_items: dict[str, str | None] = {}
    seen_resp: set[str] = set()
    scorer_values: dict[tuple[str, str], list] = {}
    multi_system = len(models) > 1
    for r in log.replies:
        iid = item_id_for(r.input_text)
        ref_text = "\n".join(r.targets) if r.targets else None
        task = r.task_name or log.task_name
        if iid in seen_items:
            if seen_items[iid] and ref_text and seen_items[iid] != ref_text:
                raise LogRejected(f"{source}: {r.ref}: the same input has two different targets "
                                  f"({seen_items[iid]!r} and {ref_text!r})")
        elif iid in old_ref:
            seen_items[iid] = ref_text
            if old_ref[iid] and ref_text and old_ref[iid] != ref_text:
                raise LogRejected(f"{source}: {r.ref}: suite {suite!r} already has this input (item {iid}) with "
                                  f"target {old_ref[iid]!r}, not {ref_text!r}")
        else:
            seen_items[iid] = ref_text
            items.add((iid, r.input_text, ref_text, task,
                       _clean_json({"sample_id": r.sample_id} if r.sample_id is not None else None), task))
            for k, t in enumerate(r.targets, start=1):
                gold.add((iid, "target" if k == 1 else f"target_{k}", t))
        system = system_of[r.model]
        rid = f"{suite}:{label}:{iid}:{r.repetition}" + (f":{system}" if multi_system else "")
        if rid in seen_resp:
            raise LogRejected(f"{source}: {r.ref}: a second output for the same input, system and repetition "
                              f"{r.repetition}")
        seen_resp.add(rid)
        total = r.total_tokens
        if total is None and r.input_tokens is not None and r.output_tokens is not None:
            total = r.input_tokens + r.output_tokens
        meta = dict(log.settings)
        meta.update(r.metadata)
        responses.add((rid, iid, system, str(r.repetition), r.output,
                       r.output if r.raw_output is None else r.raw_output, r.input_tokens, r.output_tokens, total,
                       r.latency_ms, r.ttft_ms, r.cost, r.cost_currency if r.cost is not None else None,
                       _clean_json(meta), task))
        for sc in r.scores:
            scorer_values.setdefault((sc.scorer, sc.kind), []).append(sc.value)
            ratings.append((rid, sc, task))

    if consume:
        log.replies = []

    # One rubric per scorer (kept when the suite already has it and the scale fits).
    spec_path = folder / "suite.yml"
    from evalhouse.suites.check import load_suite_yaml

    spec = load_suite_yaml(spec_path.read_text(encoding="utf-8")) if spec_path.is_file() else None
    created = spec is None
    spec = copy.deepcopy(spec) if spec else {
        "title": f"Imported runs: {suite}", "description": f"Runs imported with evalhouse import-runs "
        f"(first from {log.tool}).", "licence": "as the imported logs", "attribution": "imported runs",
        "first_filter": False}
    rubrics = spec.setdefault("rubrics", [])
    by_id = {r["rubric_id"]: r for r in rubrics}
    scale_of: dict[str, tuple[str, str, int, int]] = {}
    new_rubrics, unmapped = [], []
    for (scorer, kind), values in sorted(scorer_values.items()):
        scale, lo, hi = _scale_of(values)
        if scale == "unmapped":
            unmapped.append(scorer)
            continue
        want = _rubric_for(suite, log.tool, scorer, scale, lo, hi, kind, now.date().isoformat())
        rid_ = want["rubric_id"]
        if rid_ in by_id:
            have = by_id[rid_]["criteria"][0]
            if scale in ("integer",):
                lo, hi = min(lo, have["min_score"]), max(hi, have["max_score"])
            if (have["min_score"], have["max_score"]) != (lo, hi) and scale != "integer":
                raise LogRejected(f"{source}: scorer {scorer!r} gives values on a {lo}-{hi} scale but rubric "
                                  f"{rid_!r} in {spec_path} is {have['min_score']}-{have['max_score']}")
            if scale == "integer" and (have["min_score"], have["max_score"]) != (lo, hi):
                raise LogRejected(f"{source}: scorer {scorer!r} gives values outside rubric {rid_!r}'s scale "
                                  f"{have['min_score']}-{have['max_score']}")
        else:
            rubrics.append(want)
            by_id[rid_] = want
            new_rubrics.append(rid_)
        scale_of[scorer] = (rid_, scale, lo, hi)

    rating_rows = _Columns(["response_id", "rater_id", "rater_kind", "criterion", "score", "reason", "rubric_id",
                            "judge_model", "metadata", "task_name"])
    memo: dict = {}
    criterion: dict[str, str] = {}
    for rid, sc, task in ratings:
        if sc.scorer not in scale_of:
            continue
        rub, scale, _, _ = scale_of[sc.scorer]
        meta = dict(sc.metadata or {})
        if scale == "percent":
            meta["value"] = sc.value
        elif not isinstance(sc.value, (bool, int)):
            meta["value"] = sc.value
        rater = f"judge:{sc.judge_model}" if sc.kind == "judge" and sc.judge_model else f"{log.tool}:{sc.scorer}"
        crit = criterion.get(sc.scorer)
        if crit is None:
            crit = criterion[sc.scorer] = slug(sc.scorer)
        rating_rows.add((rid, rater, sc.kind, crit, str(_to_level(sc.value, scale)), sc.reason, rub,
                         sc.judge_model if sc.kind == "judge" else None, _clean_json(meta, memo), task))
    del ratings

    const = {"source_tool": log.tool, "source_tool_version": log.tool_version, "source_log": str(source),
             "source_sha256": sha, "eval_id": log.eval_id, "imported_at": stamp}
    tables = {"items": items.table("items", const),
              "gold": gold.table("gold", {"gold_kind": "string_fact"}),
              "responses": responses.table("responses", dict(const, is_reference_system="false", run_label=label)),
              "ratings": rating_rows.table("ratings", dict(const, rubric_version="1", is_blind="false",
                                                           rated_at=stamp))}
    counts = {t: v.num_rows for t, v in tables.items()}
    old_text = None if created else spec_path.read_text(encoding="utf-8")
    spec_text = _spec_text(spec, old_text, [by_id[r] for r in new_rubrics])
    _stage_and_write(folder, spec_text, created or bool(new_rubrics), tables, import_id, source)
    unknown = sorted(log.unknown_fields | {f"score:{s}" for s in unmapped})
    return ImportResult(suite, import_id, label, counts,
                        unknown_fields=unknown, new_rubrics=new_rubrics, systems=sorted(system_of.values()),
                        label_taken=base if label != base else None)


class _Columns:
    """New rows of one table: ``add`` takes a row, a tuple of one value per column in the order of ``names``."""

    def __init__(self, names: list[str]):
        self.names = names
        self.rows: list[tuple] = []
        self.add = self.rows.append

    def table(self, table: str, const: dict) -> pa.Table:
        """An all-text Arrow table with the contract's columns (the suite reader reads Parquet as text): these
        columns, ``const`` (column -> the value of every row), NULL for the others."""
        n = len(self.rows)
        cols = dict(zip(self.names, map(list, zip(*self.rows)))) if n else {c: [] for c in self.names}
        self.rows = []
        out = {}
        for c in (c.name for c in TABLES[table].columns):
            if c in cols:
                out[c] = _text_array(cols.pop(c))
            elif const.get(c) is not None:
                out[c] = pa.repeat(_text_array([const[c]])[0], n)
            else:
                out[c] = pa.nulls(n, pa.string())
        return pa.table(out)


def _text_array(vals: list) -> pa.Array:
    """Text and None as they are, numbers as their text (``_num_text``)."""
    try:
        return pa.array(vals, type=pa.string())
    except (pa.ArrowTypeError, pa.ArrowInvalid):  # numbers: their text
        return pa.array([None if v is None else (v if isinstance(v, str) else _num_text(v)) for v in vals],
                        type=pa.string())


def _num_text(v) -> str:
    if isinstance(v, float):
        return repr(v) if not v.is_integer() else str(int(v))
    return str(v)


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue().to_pybytes()


def _spec_text(spec: dict, old_text: str | None, added: list[dict]) -> str:
    """The suite.yml to write: a new suite's spec dumped; an existing file's own text with the ``added`` rubrics
    inserted after the last item of its block list ``rubrics:`` (its comments and layout kept: a person wrote it),
    when that reads back as ``spec``; else (no such list, a flow list) the spec dumped."""
    from evalhouse.suites.check import load_suite_yaml

    dumped = yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=120)
    if old_text is None or not added:
        return dumped if old_text is None else old_text
    try:
        root = yaml.compose(old_text)
        node = next((v for k, v in root.value if k.value == "rubrics"), None) \
            if isinstance(root, yaml.MappingNode) else None
        if not isinstance(node, yaml.SequenceNode) or node.flow_style or not node.value:
            return dumped
        items = yaml.safe_dump(added, sort_keys=False, allow_unicode=True, width=120)  # "- " at column 0
        dash = " " * max(node.value[0].start_mark.column - 2, 0)  # the existing items' "- " (content after it)
        block = "".join(dash + line if line.strip() else line for line in items.splitlines(keepends=True))
        # where the list ends: before what follows it, after the comments indented under its last item (they stay
        # with it), before blank lines and comments at column 0 (they introduce what follows)
        end = node.end_mark
        line_end = old_text.find("\n", end.index)
        at = end.index if end.column == 0 else len(old_text) if line_end < 0 else line_end + 1
        lines = old_text[:at].splitlines(keepends=True)
        while lines and (not lines[-1].strip() or lines[-1].startswith("#")):
            lines.pop()
        at = len("".join(lines))
        text = old_text[:at] + ("" if old_text[:at].endswith("\n") else "\n") + block + old_text[at:]
        if load_suite_yaml(text) == load_suite_yaml(dumped):
            return text
    except (yaml.YAMLError, StopIteration, AttributeError, IndexError):
        pass
    return dumped


def _stage_and_write(folder: Path, spec_text: str, spec_changed: bool, tables: dict[str, pa.Table],
                     import_id: str, source: Path) -> None:
    from evalhouse.suites.check import check_suite

    payload = {t: _parquet_bytes(table) for t, table in tables.items() if table.num_rows}
    tables.clear()  # the Parquet bytes are what is checked and stored
    for t in payload:
        if (folder / t / f"{import_id}.parquet").exists():
            raise LogRejected(f"{source}: {folder / t / (import_id + '.parquet')} exists already")

    with tempfile.TemporaryDirectory(prefix="evalhouse-import-") as tmp:
        stage = Path(tmp) / folder.name
        if folder.is_dir():
            _link_tree(folder, stage)
        stage.mkdir(parents=True, exist_ok=True)
        if (stage / "suite.yml").exists():
            (stage / "suite.yml").unlink()
        (stage / "suite.yml").write_text(spec_text, encoding="utf-8")
        for t, data in payload.items():
            (stage / t).mkdir(exist_ok=True)
            (stage / t / f"{import_id}.parquet").write_bytes(data)
        cwd = os.getcwd()
        try:
            os.chdir(tmp)  # problems name files relative to the staging copy: <suite>/<table>/<file>
            # The suite's earlier files were checked when they came in: single rows are checked in the new files,
            # keys, references and duplicates across all.
            _, problems = check_suite(Path(folder.name), new_files=[Path(folder.name) / t / f"{import_id}.parquet"
                                                                    for t in payload])
        finally:
            os.chdir(cwd)
        if problems:
            shown = "\n".join(f"  {_as_checked(p, folder, import_id)}" for p in problems[:20])
            more = f"\n  ... and {len(problems) - 20} more" if len(problems) > 20 else ""
            raise LogRejected(f"{source}: the suite with the imported rows would not pass `evalhouse suite check` "
                              f"(nothing stored):\n{shown}{more}")

    written: list[Path] = []
    try:
        for t, data in payload.items():
            written.append(files.write_new(folder / t / f"{import_id}.parquet", data))
        if spec_changed or not (folder / "suite.yml").exists():
            files.write_replace(folder / "suite.yml", spec_text.encode("utf-8"))
    except BaseException:
        for p in written:
            p.unlink(missing_ok=True)
        raise


def _as_checked(problem, folder: Path, import_id: str) -> str:
    """A problem of the staged suite as `evalhouse suite check` names it (the staging copy's ``<suite>/...`` is the
    suite's folder), saying when it is in a file the suite already had, not in the rows being imported."""
    from evalhouse.suites.check import _rel

    name = problem.file
    if not name.startswith(folder.name + "/"):
        return str(problem)
    already = Path(name).stem != import_id and Path(name).name != "suite.yml"
    shown = dataclasses.replace(problem, file=_rel(folder.parent / name))
    return f"{shown}" + ("  (in a file the suite already had)" if already else "")


def _link_tree(src: Path, dst: Path) -> None:
    """Mirror ``src`` into ``dst`` with hard links (copies where links fail): the staging copy costs no bytes."""
    def link(s, d):
        try:
            os.link(s, d)
        except OSError:
            shutil.copy2(s, d)
    shutil.copytree(src, dst, copy_function=link)
