"""``evalhouse suite check``: read a suite folder and report every problem as ``file:row:column: message``.

Reading: ``suite.yml`` is validated against the contract's JSON schema (jsonschema; the row is the YAML line) and
for rubric consistency; each data file (CSV, JSONL, Parquet, or a folder of them) is read as text, so a stray
"2.5" in an integer column is reported, never coerced. Column expectations (required, type, allowed values, unique
key) are generated from the contract and run with Great Expectations on pandas; references between files (a
response's item, a rating's response and criterion, a score within its criterion's scale) are checked in pandas.

Rows are numbered as in the file: for CSV the physical line (the header is line 1), for JSONL the line, for
Parquet the 1-based row. A problem that concerns a whole file or column has row 0 or 1.
"""
from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import yaml

from evalhouse.suites.contract import DIRECTIONS, FACT_KINDS, FORMATS, SUITE_NAME, SUITE_SCHEMA, TABLES, TYPE_PATTERNS

__all__ = ["Problem", "SuiteData", "check_suite", "suite_notes", "suite_folders", "read_table_files", "rater_kinds",
           "EMPTY", "TEXT"]

_TRUE = {"true", "1"}
# Raters whose scores are kept as recorded (a judge's mean of sampled answers, a failure code): int_ratings flags a
# score that is not a whole level within the scale and the marts leave it out by default. A person's score
# (human, adjudicator) must be a whole level within the scale.
_KEPT_AS_RECORDED = {"judge", "program", "metric"}
# An empty string of a keeps_empty column read from Parquet / JSONL (a value, not missing); landed as ''.
EMPTY = "\x00empty"
# The frames' text columns: pandas' Arrow-backed string dtype (pandas' default ``str``), so a large import is
# held as Arrow buffers, not as one Python object per cell. Values are never missing ('' is): a frame holds text.
TEXT = pd.StringDtype("pyarrow", na_value=float("nan"))


@dataclass(frozen=True)
class Problem:
    """One problem found in a suite: where (file, row, column) and what. Row 0 is a problem of the whole file (or
    folder), shown as ``-`` like an empty column, as the ratings store's problems show it: ``file:-:-: message``."""
    file: str
    row: int
    column: str
    message: str
    kind: str = "invalid"

    def __str__(self) -> str:
        return f"{self.file}:{self.row or '-'}:{self.column or '-'}: {self.message}"


@dataclass
class SuiteData:
    """A suite read from its folder: the parsed suite.yml and one text DataFrame per present table.

    Each frame holds the contract columns present in the files (text, '' read as missing) plus ``_file`` and
    ``_row`` (where the row came from). ``rubrics`` maps rubric_id -> {version: {criterion: definition}}.
    """
    name: str
    folder: Path
    spec: dict = field(default_factory=dict)
    tables: dict[str, pd.DataFrame] = field(default_factory=dict)
    rubrics: dict[str, dict[int, dict[str, dict]]] = field(default_factory=dict)
    spec_lines: dict[tuple, int] = field(default_factory=dict)  # YAML path in suite.yml -> line number
    # tables with a file that could not be read (its problem is reported): references into them are not checked,
    # since every row of the broken file would otherwise be reported again as unknown
    unreadable: set[str] = field(default_factory=set)


def suite_folders(root: Path) -> list[Path]:
    """Every folder under ``root`` that holds a suite.yml, sorted by name."""
    root = Path(root)
    return sorted(p.parent for p in root.glob("*/suite.yml")) if root.is_dir() else []


def _rel(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- suite.yml

def _yaml_lines(node, path=(), out=None) -> dict[tuple, int]:
    """Map each JSON path (tuple of keys / indexes) of a composed YAML node to its 1-based line."""
    out = {} if out is None else out
    out[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            out[path + (key.value,)] = key.start_mark.line + 1
            _yaml_lines(value, path + (key.value,), out)
            out[path + (key.value,)] = key.start_mark.line + 1
    elif isinstance(node, yaml.SequenceNode):
        for i, value in enumerate(node.value):
            _yaml_lines(value, path + (i,), out)
    return out


def _line(lines: dict[tuple, int], path) -> int:
    path = tuple(path)
    while path and path not in lines:
        path = path[:-1]
    return lines.get(path, 1)


class _SuiteYamlLoader(yaml.SafeLoader):
    """YAML's safe loader without its timestamps: a date or time is the text written (an impossible date such as
    2026-02-30, unquoted, is then a problem the check names with its line, not a ValueError of the YAML reader)."""


_SuiteYamlLoader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def load_suite_yaml(text: str):
    """A suite.yml's text as Python values (``yaml.safe_load``, dates and times kept as text); raises
    yaml.YAMLError when it is not valid YAML."""
    return yaml.load(text, Loader=_SuiteYamlLoader)  # noqa: S506 - a SafeLoader subclass


def _read_spec(folder: Path, problems: list[Problem]) -> tuple[dict, dict]:
    f = folder / "suite.yml"
    name = _rel(f)
    try:
        text = f.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem(name, 0, "", f"cannot read suite.yml ({exc})"))
        return {}, {}
    try:
        node = yaml.compose(text)
        spec = load_suite_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problems.append(Problem(name, (mark.line + 1) if mark else 0, "",
                                f"not valid YAML ({getattr(exc, 'problem', exc)})"))
        return {}, {}
    if not isinstance(spec, dict):
        problems.append(Problem(name, 1, "", "suite.yml must be a mapping (title, rubrics, ...)"))
        return {}, {}
    lines = _yaml_lines(node) if node is not None else {}
    spec = json.loads(json.dumps(spec))  # as JSON reads it (a mapping's number keys as text, as they always were)
    import jsonschema

    # format "date": effective_from must be a date that exists (2026-13-01 stopped the build in dbt's cast)
    validator = jsonschema.Draft202012Validator(SUITE_SCHEMA,
                                                format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    for err in sorted(validator.iter_errors(spec), key=lambda e: list(map(str, e.absolute_path))):
        where = ".".join(str(p) for p in err.absolute_path) or "(top)"
        msg = err.message
        if err.validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            msg = f"missing required field '{missing}'"
            if missing == "direction":
                msg += " (higher or lower: which end of the scale is better)"
        elif err.validator == "enum" and err.absolute_path and err.absolute_path[-1] == "direction":
            msg = f"direction must be one of {', '.join(DIRECTIONS)}, not {err.instance!r}"
        elif err.validator == "additionalProperties":
            msg = f"unknown field: {err.message}"
        elif err.validator == "format" and err.validator_value == "date":
            msg = f"{err.instance!r} is not a date (YYYY-MM-DD, a day that exists)"
        problems.append(Problem(name, _line(lines, err.absolute_path), where, msg))
    if spec.get("suite") not in (None, folder.name):
        problems.append(Problem(name, _line(lines, ("suite",)), "suite",
                                f"suite is {spec.get('suite')!r} but the folder is {folder.name!r}"))
    return spec, lines


def _expand_rubrics(spec: dict, lines: dict, name: str, problems: list[Problem]) -> dict:
    """rubric_id -> {version: {criterion: definition}}: a version carries the previous one's criteria over and
    replaces those it lists. Checks levels against the scale, unique names, orders and versions, rule criteria."""
    out: dict[str, dict[int, dict[str, dict]]] = {}
    seen_rubrics: set[str] = set()
    for ri, rubric in enumerate(spec.get("rubrics") or []):
        if not isinstance(rubric, dict) or "rubric_id" not in rubric:
            continue
        rid = rubric["rubric_id"]
        base = ("rubrics", ri)
        if rid in seen_rubrics:
            problems.append(Problem(name, _line(lines, base + ("rubric_id",)), "rubric_id", f"rubric {rid!r} twice"))
            continue
        seen_rubrics.add(rid)

        def criteria_of(items, path, rid=rid) -> dict[str, dict]:
            defs: dict[str, dict] = {}
            for ci, c in enumerate(items or []):
                if not isinstance(c, dict) or "criterion" not in c:
                    continue
                cpath = path + (ci,)
                cname = c["criterion"]
                if cname in defs:
                    problems.append(Problem(name, _line(lines, cpath), "criterion", f"criterion {cname!r} twice in "
                                            f"rubric {rid!r}"))
                lo, hi = c.get("min_score"), c.get("max_score")
                if isinstance(lo, int) and isinstance(hi, int):
                    if lo >= hi:
                        problems.append(Problem(name, _line(lines, cpath + ("max_score",)), "max_score",
                                                f"{cname}: max_score {hi} must be above min_score {lo}"))
                    levels = [lv.get("level") for lv in c.get("levels") or [] if isinstance(lv, dict)]
                    for li, lv in enumerate(levels):
                        if isinstance(lv, int) and not lo <= lv <= hi:
                            problems.append(Problem(name, _line(lines, cpath + ("levels", li, "level")), "level",
                                                    f"{cname}: level {lv} is outside the scale {lo}-{hi}"))
                    dupes = sorted({lv for lv in levels if levels.count(lv) > 1 and lv is not None})
                    if dupes:
                        problems.append(Problem(name, _line(lines, cpath + ("levels",)), "level",
                                                f"{cname}: level(s) {dupes} defined twice"))
                defs[cname] = dict(c)
            return defs

        current = criteria_of(rubric.get("criteria"), base + ("criteria",))
        for i, cname in enumerate(current):
            current[cname].setdefault("order", i + 1)
        versions: dict[int, dict[str, dict]] = {}
        last = 0
        for vi, v in enumerate(rubric.get("versions") or []):
            if not isinstance(v, dict) or not isinstance(v.get("version"), int):
                continue
            num = v["version"]
            if num <= last:
                problems.append(Problem(name, _line(lines, base + ("versions", vi, "version")), "version",
                                        f"rubric {rid!r}: versions must increase (version {num} after {last})"))
                continue
            last = num
            replaced = criteria_of(v.get("criteria"), base + ("versions", vi, "criteria"))
            current = {k: dict(d) for k, d in current.items()}
            for cname, d in replaced.items():
                d.setdefault("order", current.get(cname, {}).get("order", len(current) + 1))
                d["_changed"] = True
                current[cname] = d
            for cname in current:
                if cname not in replaced:
                    current[cname].pop("_changed", None)
            versions[num] = {k: dict(d, _version_spec=v) for k, d in current.items()}
        orders = [d.get("order") for d in current.values()]
        if len(set(orders)) != len(orders):
            problems.append(Problem(name, _line(lines, base + ("criteria",)), "order",
                                    f"rubric {rid!r}: two criteria share an order"))
        all_criteria = set().union(*[set(v) for v in versions.values()]) if versions else set(current)
        rule = rubric.get("decision_rule") or {}
        for kind, crit in rule.items():
            for k, cname in enumerate(crit or []):
                if cname not in all_criteria:
                    problems.append(Problem(name, _line(lines, base + ("decision_rule", kind, k)), kind,
                                            f"rubric {rid!r}: {kind} names unknown criterion {cname!r}"))
        for cname in (rubric.get("composite_weights") or {}):
            if cname not in all_criteria:
                problems.append(Problem(name, _line(lines, base + ("composite_weights", cname)), "composite_weights",
                                        f"rubric {rid!r}: weight for unknown criterion {cname!r}"))
        out[rid] = versions
    return out


def _check_answer_rules(spec: dict, lines: dict, name: str, problems: list[Problem]) -> None:
    """``answer_rules`` (gold kind -> rule names): every kind is a fact kind, every rule is in the registry
    (evalhouse.rules.RULES) and applies to its kind, no rule twice; rules need ``grounding: true``. The column of
    a problem is the field, ``answer_rules.<gold kind>``; its row is the YAML line of the offending entry."""
    declared = spec.get("answer_rules")
    if not isinstance(declared, dict):
        return
    from evalhouse.rules import RULES

    if declared and spec.get("grounding") is not True:
        problems.append(Problem(name, _line(lines, ("answer_rules",)), "answer_rules",
                                "answer_rules need grounding: true (the suite's facts are scored by them)"))
    for kind, rules in declared.items():
        field = f"answer_rules.{kind}"
        if kind not in FACT_KINDS:
            problems.append(Problem(name, _line(lines, ("answer_rules", kind)), field,
                                    f"unknown gold kind {kind!r}: answer rules score {', '.join(FACT_KINDS)}"))
            continue
        seen: set[str] = set()
        for i, rule in enumerate(rules if isinstance(rules, list) else []):
            if not isinstance(rule, str):
                continue  # reported by the schema
            where = _line(lines, ("answer_rules", kind, i))
            if rule not in RULES:
                problems.append(Problem(name, where, field, f"unknown answer rule {rule!r} (known: "
                                        f"{', '.join(RULES)})"))
            elif kind not in RULES[rule].gold_kinds:
                problems.append(Problem(name, where, field, f"answer rule {rule!r} does not apply to gold kind "
                                        f"{kind} (it applies to {', '.join(RULES[rule].gold_kinds)})"))
            elif rule in seen:
                problems.append(Problem(name, where, field, f"answer rule {rule!r} twice"))
            seen.add(rule)


# ---------------------------------------------------------------- data files

_FORMAT_NAMES = ", ".join(FORMATS[:-1]) + " or " + FORMATS[-1]


def _table_files(folder: Path, problems: list[Problem]) -> dict[str, list[Path]]:
    """The data files of each table in a suite folder: ``<table>.<format>`` and the files of ``<table>/``.

    A file that is meant as a table but would not be read is a problem rather than silently skipped: a
    ``<table>.<other extension>`` beside suite.yml (``ratings.tsv``, ``ratings.csv.gz``) and any file of another
    format inside a ``<table>/`` folder. Other files (README.md, notes) are the team's own and are left alone."""
    found: dict[str, list[Path]] = {}
    for p in sorted(folder.iterdir()):
        stem, suffix = (p.name, "") if p.is_dir() else (p.stem, p.suffix.lower())
        if p.is_dir():
            if stem in TABLES:
                for f in sorted(p.iterdir()):
                    if f.name.startswith("."):
                        continue
                    if f.is_file() and f.suffix.lower() in FORMATS:
                        found.setdefault(stem, []).append(f)
                    else:
                        problems.append(Problem(_rel(f), 0, "", f"not read: the files of folder {stem}/ must be "
                                                f"{_FORMAT_NAMES} files"))
            continue
        if suffix not in FORMATS:
            table = p.name.split(".", 1)[0]
            if table in TABLES and "." in p.name and not p.name.startswith("."):
                problems.append(Problem(_rel(p), 0, "", f"not read: table {table} must be a {_FORMAT_NAMES} file "
                                        f"(or a folder {table}/ of them)"))
            continue
        if stem not in TABLES:
            problems.append(Problem(_rel(p), 0, "", f"unknown data file: a suite's tables are "
                                    f"{', '.join(TABLES)} (.csv, .jsonl or .parquet)"))
            continue
        found.setdefault(stem, []).append(p)
    return found


def _text(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and v != v:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (dict, list)):
        return json.dumps(v, ensure_ascii=False)
    return str(v)


def _read_file(path: Path, problems: list[Problem], keep: frozenset[str] = frozenset()) -> pd.DataFrame | None:
    """One data file as text; ``keep``: columns whose empty strings stay values (EMPTY), not missing."""
    name = _rel(path)
    suffix = path.suffix.lower()
    if suffix == ".parquet":
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # noqa: BLE001 - any reader error is the file's problem
            problems.append(Problem(name, 0, "", f"not a readable Parquet file ({exc})"))
            return None
        df = pd.DataFrame({col: _text_column(table.column(col), col in keep) for col in table.column_names},
                          index=pd.RangeIndex(table.num_rows))
        df["_row"] = np.arange(1, len(df) + 1, dtype=np.int64)
    else:
        from evalhouse.ratings.store import ImportRejected, read_rows

        try:
            if suffix == ".jsonl":
                rows = _read_jsonl(path, keep)
            else:
                rows = read_rows(path)
        except ImportRejected as exc:
            for msg in exc.problems:
                problems.append(_parse_problem(msg.replace(str(path), name, 1), name))
            return None
        header = _csv_header(path) if suffix == ".csv" else sorted({k for _, r in rows for k in r})
        df = pd.DataFrame([r for _, r in rows], columns=header, dtype=object).fillna("").astype(TEXT)
        df["_row"] = [line for line, _ in rows]
    # the record's number among the file's data rows (1 = first; a CSV's header is not one): source_row, as every
    # other source numbers its rows; _row stays the line the problems name
    df["_source_row"] = np.arange(1, len(df) + 1, dtype=np.int64)
    df["_file"] = _repeat_text(name, len(df))
    return df


def _text_column(col, keep: bool) -> pd.Series:
    """One Parquet column as a text Series (``_text``; '' of a ``keep`` column as EMPTY). String, integer and
    boolean columns are converted in Arrow (None -> ''; an integer as ``str`` writes it, a boolean as true / false);
    a floating-point column value by distinct value (bit for bit); other types value by value."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = col.type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        if keep:
            col = pc.if_else(pc.equal(col, ""), EMPTY, col)
        return _text_series(pc.fill_null(col, "").cast(pa.large_string()))
    if pa.types.is_integer(t) or pa.types.is_boolean(t):
        return _text_series(pc.fill_null(col.cast(pa.large_string()), ""))
    if pa.types.is_floating(t) and not pa.types.is_float16(t):
        # a null and a NaN are both '' (_text); equal bits are equal floats, whose text is one
        values = col.to_numpy(zero_copy_only=False)
        bits = values.view(np.uint32 if values.dtype == np.float32 else np.uint64)
        uniques, codes = np.unique(bits, return_inverse=True)
        texts = pa.array([_text(v) for v in uniques.view(values.dtype).tolist()], type=pa.large_string())
        return _text_series(texts.take(pa.array(codes.ravel())))
    return pd.Series([EMPTY if v == "" and keep else _text(v) for v in col.to_pylist()], dtype=TEXT)


def _text_series(values, index=None) -> pd.Series:
    """Arrow large strings (an Array or ChunkedArray) as a text Series, without a copy. (``pa.chunked_array`` of a
    list holding a ChunkedArray reads it value by value: 7 s for 8M ratings, so a ChunkedArray is used as it is.)"""
    import pyarrow as pa

    if isinstance(values, pa.Array):
        values = pa.chunked_array([values])
    return pd.Series(pd.arrays.ArrowStringArray(values), index=index, dtype=TEXT)


def _repeat_text(value: str, n: int) -> pd.Series:
    """A text Series of ``n`` times ``value`` (made in Arrow, not from n Python strings; the columns of '' of one
    length share one buffer, Arrow arrays being immutable)."""
    return _text_series(_repeat_array(value, n) if value else _empty_array(n))


@functools.lru_cache(maxsize=4)
def _empty_array(n: int):
    return _repeat_array("", n)


def _repeat_array(value: str, n: int):
    import pyarrow as pa

    data = value.encode()
    offsets = np.arange(n + 1, dtype=np.int64) * len(data) if data else np.zeros(n + 1, dtype=np.int64)
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data * n))


def _csv_header(path: Path) -> list[str]:
    import csv

    with open(path, encoding="utf-8-sig", newline="") as fh:
        return [h.strip() for h in next(csv.reader(fh))]


def _read_jsonl(path: Path, keep: frozenset[str] = frozenset()) -> list[tuple[int, dict]]:
    """JSONL rows as text through the store's reader; objects and lists as JSON, ``keep`` columns' '' as EMPTY."""
    from evalhouse.ratings.store import read_rows

    return read_rows(Path(_rel(path)), jsonl_value=lambda k, v: EMPTY if v == "" and k in keep else _text(v))


def _parse_problem(msg: str, default_file: str) -> Problem:
    parts = msg.split(":", 3)
    if len(parts) == 4 and (parts[1].isdigit() or parts[1] == "-"):
        return Problem(parts[0], 0 if parts[1] == "-" else int(parts[1]), "" if parts[2] == "-" else parts[2],
                       parts[3].strip())
    return Problem(default_file, 0, "", msg)


def read_table_files(folder: Path, problems: list[Problem],
                     unreadable: set[str] | None = None) -> dict[str, pd.DataFrame]:
    """Read every table of a suite folder as text frames (several files of one table are stacked).
    ``unreadable``, when given, receives the names of the tables with a file that could not be read."""
    out: dict[str, pd.DataFrame] = {}
    for table, files in _table_files(folder, problems).items():
        spec = TABLES[table]
        frames = []
        for f in files:
            df = _read_file(f, problems, frozenset(c.name for c in spec.columns if c.keeps_empty))
            if df is None:
                if unreadable is not None:
                    unreadable.add(table)
                continue
            if df.empty:
                problems.append(Problem(_rel(f), 0, "", f"no rows: the file of table {table} has no data rows "
                                        f"(remove it, or add its rows)"))
            unknown = [c for c in df.columns if c not in spec.names and not c.startswith("_")]
            for c in unknown:
                problems.append(Problem(_rel(f), 1, c, f"unknown column for table {table}: expected some of "
                                        f"{', '.join(spec.names)} (put anything else in metadata)"))
            frames.append(df.drop(columns=unknown))
        if frames:
            df = pd.concat(frames, ignore_index=True)
            for c in spec.names:
                if c not in df.columns:
                    df[c] = _repeat_text("", len(df))
            out[table] = df[spec.names + ["_file", "_row", "_source_row"]].fillna("").astype(
                {c: TEXT for c in spec.names + ["_file"]})
    return out


def _expectations(df: pd.DataFrame, table: str, present: dict[str, set[str]], problems: list[Problem],
                  new_files: set[str] | None = None) -> None:
    """Column expectations generated from the contract, run with Great Expectations on the text frame.

    The per-row expectations (required, type, allowed values) and the missing-column check run on the rows of
    ``new_files`` (every row when None); the unique key spans every file. Each of the two groups is one
    ExpectationSuite validated on one batch (a batch per expectation re-hashes the whole frame each time).

    A per-row expectation judges each value on its own (not missing, matches the type's pattern, in the allowed
    set), so its batch holds each checked column's distinct values once (side by side, shorter columns padded with
    their first value) and a value's verdict goes to every row that holds it: the same rows, in frame order, as
    validating every row, at the cost of the distinct values (an import's 400k ratings have a few hundred)."""
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
    import great_expectations as gx

    spec = TABLES[table]
    E = gx.expectations
    per_row = []  # (column, expectation, message template with {col} and {value})
    for col in spec.columns:
        if col.required:
            per_row.append((col.name, E.ExpectColumnValuesToNotBeNull(column=col.name), "{col} is required"))
        if col.type in TYPE_PATTERNS:
            article = "an" if col.type[0] in "aeiou" else "a"
            per_row.append((col.name, E.ExpectColumnValuesToMatchRegex(column=col.name,
                                                                       regex=TYPE_PATTERNS[col.type]),
                            f"{{col}} is not {article} {col.type}: {{value}}"))
        if col.allowed:
            per_row.append((col.name, E.ExpectColumnValuesToBeInSet(column=col.name, value_set=list(col.allowed)),
                            f"{{col}} must be one of {', '.join(col.allowed)}, not {{value}}"))
    keyed = []
    if spec.key:
        keyed.append((",".join(spec.key), E.ExpectCompoundColumnsToBeUnique(column_list=list(spec.key))
                      if len(spec.key) > 1 else E.ExpectColumnValuesToBeUnique(column=spec.key[0]),
                      f"duplicate key ({', '.join(spec.key)}): {{value}}"))
    # Missing required columns: reported once per file that lacks them.
    for col in spec.columns:
        if col.required:
            for f, cols in present.items():
                if col.name not in cols and (new_files is None or f in new_files):
                    problems.append(Problem(f, 1, col.name, f"missing required column {col.name!r}"))
    for checks, only_new, by_value in ((per_row, new_files is not None, True), (keyed, False, False)):
        checks = [(column, exp, message) for column, exp, message in checks
                  if "required" in message or any(c in cols for c in column.split(",") for cols in present.values())]
        if not checks:  # (an optional column no file has is not checked)
            continue
        # Only the checked columns go into the batch (free text is long and every batch is hashed).
        used = list(dict.fromkeys(c for column, _, _ in checks for c in column.split(",")))
        frame = df.loc[df["_file"].isin(new_files), used + ["_file", "_row"]] if only_new else \
            df[used + ["_file", "_row"]]
        if not len(frame):
            continue
        frame = frame.reset_index(drop=True)
        values = {c: frame[c].mask(frame[c] == "") for c in used}  # '' is missing to the expectations
        codes = None
        if by_value:
            codes, batches = _distinct_values(values)
        else:
            batches = [pd.DataFrame(values)]
        unexpected: dict[int, np.ndarray | None] = {}
        for batch in batches:
            mine = [k for k, (column, _, _) in enumerate(checks) if column.split(",")[0] in batch.columns]
            unexpected.update(zip(mine, _validate(batch, table, [checks[k] for k in mine])))
        for k, (column, _, message) in enumerate(checks):
            index = unexpected[k]
            if index is None:
                continue
            if codes is not None:  # distinct values -> the rows that hold them
                n_values, value_codes = codes[column]
                index = np.flatnonzero(np.isin(value_codes, index[index < n_values]))
            _word(frame, values, index, column, message, present, problems)
    for col in spec.columns:
        if col.type == "timestamp" and any(col.name in cols for cols in present.values()):
            _impossible_timestamps(df, col.name, new_files, problems)


def _impossible_timestamps(df: pd.DataFrame, column: str, new_files: set[str] | None,
                           problems: list[Problem]) -> None:
    """Rows of ``column`` (a timestamp) whose value has the timestamp's form (TYPE_PATTERNS) but is no time the
    landing can write: a month 13, February 30, hour 25, or a year outside 1678-2261 (within pandas' nanosecond
    range). The distinct values are parsed by the landing's parser (pandas ISO 8601, UTC;
    evalhouse.suites.land._timestamp_text), so a suite that passes the check lands; each value alone only when the
    whole set fails. Rows of ``new_files`` only (every row when None), as the per-row checks."""
    frame = df.loc[df["_file"].isin(new_files)] if new_files is not None else df
    if not len(frame):
        return
    values = frame[column]
    distinct = pd.Series(pd.unique(values[values != ""]), dtype=object)
    formed = distinct[distinct.str.match(TYPE_PATTERNS["timestamp"])]
    if not len(formed):
        return
    from evalhouse.suites.land import _timestamp_text  # the landing's own conversion (land imports this module)

    def lands(texts: pd.Series) -> bool:
        try:
            _timestamp_text(texts)
        except (ValueError, OverflowError):  # pandas' OutOfBoundsDatetime is a ValueError
            return False
        return True

    # pandas' nanosecond range (1677-09-21 .. 2262-04-11), kept to whole years: one value beyond it can make the
    # landing's conversion of the whole column fail even when that value alone converts
    in_range = formed.str.strip().str[:4].astype(int).between(1678, 2261)
    if in_range.all() and lands(formed):
        return
    bad = set(formed[~in_range.to_numpy()]) | {v for v in formed[in_range.to_numpy()]
                                              if not lands(pd.Series([v], dtype=values.dtype))}
    hit = values.isin(bad).to_numpy(dtype=bool)
    for f, r, v in zip(frame["_file"][hit], frame["_row"][hit], values[hit]):
        problems.append(Problem(f, int(r), column, f"{column} is not a timestamp: {str(v)[:60]!r} (no such date or "
                                "time, or a year outside 1678-2261)"))


def _distinct_values(values: dict[str, pd.Series], few: int = 1000
                     ) -> tuple[dict[str, tuple[int, np.ndarray]], list[pd.DataFrame]]:
    """Each column's distinct values (missing included) side by side, a shorter column padded with its first
    value, in two frames: the columns of at most ``few`` distinct values, and the others (so a column of a few
    values is not padded to the length of one of 100k); and per column (number of distinct values, each row's
    position among them)."""
    codes, distinct = {}, {}
    for c, s in values.items():
        row_codes, uniques = pd.factorize(s, use_na_sentinel=False)
        codes[c] = (len(uniques), row_codes)
        distinct[c] = pd.Series(uniques, dtype=TEXT)
    batches = []
    for group in ([c for c, u in distinct.items() if len(u) <= few], [c for c, u in distinct.items() if len(u) > few]):
        if group:
            n = max(len(distinct[c]) for c in group)
            batches.append(pd.DataFrame({c: distinct[c].take(np.r_[np.arange(len(distinct[c])),
                                                                   np.zeros(n - len(distinct[c]), dtype=np.intp)])
                                         .reset_index(drop=True) for c in group}))
    return codes, batches


def _word(frame: pd.DataFrame, values: dict[str, pd.Series], index, column: str, message: str,
          present: dict[str, set[str]], problems: list[Problem]) -> None:
    """One problem per unexpected row (``index``: positions in ``frame``, in frame order); a missing value is
    shown as None."""
    key_cols = column.split(",")
    first_seen: dict[tuple, str] = {}
    files, rows = frame["_file"], frame["_row"]
    for i in index:
        f, r = files.iat[i], rows.iat[i]
        if "required" in message and column not in present.get(f, set()):
            continue  # already reported once as a missing column
        key = tuple(None if pd.isna(v) else v for v in (values[c].iat[i] for c in key_cols))
        value = ", ".join(repr(str(v)[:60]) for v in key)
        if message.startswith("duplicate key"):
            if key not in first_seen:
                first_seen[key] = f"{f}:{r}"
                continue  # the first occurrence is not the duplicate
            value += f" (first at {first_seen[key]})"
        problems.append(Problem(f, int(r), column, message.format(col=column, value=value)))


def _validate(batch_df: pd.DataFrame, table: str, checks: list) -> list[np.ndarray | None]:
    """Validate ``checks`` (column, expectation, message) as one suite on ``batch_df``: per check, the sorted
    positions of its unexpected rows, or None when it passed."""
    import great_expectations as gx

    global _N_SOURCES
    _N_SOURCES += 1
    context = _gx_context()
    asset = context.data_sources.add_pandas(f"suite_source_{_N_SOURCES}").add_dataframe_asset(name=table)
    batch = asset.add_batch_definition_whole_dataframe("all").get_batch(batch_parameters={"dataframe": batch_df})
    suite = gx.ExpectationSuite(name=f"suite_{_N_SOURCES}")
    for k, (_, exp, _) in enumerate(checks):
        exp.meta = {"check": k}
        suite.add_expectation(exp)
    outcome = batch.validate(suite, result_format={"result_format": "COMPLETE"})
    # the context saves its whole config at each new source: drop this one, so that cost does not grow per batch
    context.data_sources.delete(f"suite_source_{_N_SOURCES}")
    by_check = {int(r.expectation_config.meta["check"]): r for r in outcome.results}
    out: list[np.ndarray | None] = []
    for k in range(len(checks)):
        result = by_check[k]
        out.append(None if result.success else np.array(sorted(
            int(i["index"] if isinstance(i, dict) else i)
            for i in (result.result or {}).get("unexpected_index_list") or []), dtype=np.intp))
    return out


_GX = None
_N_SOURCES = 0


def _gx_context():
    global _GX
    if _GX is None:
        os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")
        import great_expectations as gx
        from great_expectations.data_context.types.base import ProgressBarsConfig
        from great_expectations.execution_engine import pandas_execution_engine

        # GX fingerprints each batch of under 1 GB by hashing every value (a batch marker we never read): 3.3 s of
        # the 40 s landing of a million replies. A threshold of 0 leaves every batch unhashed, as GX already does
        # for larger ones.
        if hasattr(pandas_execution_engine, "HASH_THRESHOLD"):
            pandas_execution_engine.HASH_THRESHOLD = 0
        _GX = gx.get_context(mode="ephemeral")
        # An ephemeral context keeps nothing, yet serialises its whole config to YAML at each data source added and
        # deleted (two per validated batch, about 1 s of a 10 s landing of the bundled suites): make that a no-op.
        _GX._save_project_config = lambda: None
        _GX.variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
    return _GX


def _json_objects(df: pd.DataFrame, table: str, problems: list[Problem]) -> None:
    """Each value of a json column is one JSON object (or missing): each distinct value parsed once."""
    for col in TABLES[table].columns:
        if col.type != "json":
            continue
        bad = {value for value in pd.unique(df[col.name]) if value != "" and not _is_json_object(value)}
        if bad:
            for value, f, r in zip(df[col.name], df["_file"], df["_row"]):
                if value in bad:
                    problems.append(Problem(f, int(r), col.name, f"{col.name} must be one JSON object"))


def _is_json_object(text: str) -> bool:
    """``json.loads(text)`` is a dict (read by msgspec first: ratings.store.json_loads)."""
    from evalhouse.ratings.store import json_loads

    try:
        return isinstance(json_loads(text), dict)
    except json.JSONDecodeError:
        return False


# ---------------------------------------------------------------- defaults and references

def _fill_defaults(data: SuiteData, problems: list[Problem]) -> None:
    t = data.tables
    if "responses" in t:
        r = t["responses"]
        _fill(r, "repetition", "1")
        r["repetition"] = r["repetition"].str.strip()
        _fill(r, "is_reference_system", "false")
        missing = r["response_id"] == ""
        r.loc[missing, "response_id"] = (data.name + ":" + r["system_id"] + ":" + r["item_id"] + ":"
                                         + r["repetition"])[missing]
        dup = r["response_id"].duplicated(keep="first") & missing & ("responses" not in data.unreadable)
        _unknown(r, dup, "system_id", lambda row: f"a second response of system {row['system_id']!r} to item "
                 f"{row['item_id']!r}, repetition {row['repetition']} (give repetition or response_id)", problems)
    if "ratings" in t:
        g = t["ratings"]
        _fill(g, "rater_kind", "human")
        _fill(g, "repetition", "1")
        by_name = (g["response_id"] == "") & (g["item_id"] != "") & (g["system_id"] != "")
        if by_name.any():
            lookup = {}
            if "responses" in t:
                r = t["responses"]
                lookup = {(i, s, p.strip()): rid for i, s, p, rid in
                          zip(r["item_id"], r["system_id"], r["repetition"], r["response_id"])}
            for idx in g.index[by_name]:
                key = (g.at[idx, "item_id"], g.at[idx, "system_id"], g.at[idx, "repetition"].strip())
                if key in lookup:
                    g.at[idx, "response_id"] = lookup[key]
                elif "responses" in data.unreadable:
                    g.at[idx, "response_id"] = "\0unknown"
                else:
                    problems.append(Problem(g.at[idx, "_file"], int(g.at[idx, "_row"]), "system_id",
                                            f"no response of system {key[1]!r} to item {key[0]!r} "
                                            f"(repetition {key[2]})"))
                    g.at[idx, "response_id"] = "\0unknown"
        for idx in g.index[(g["response_id"] == "") & ~by_name]:
            problems.append(Problem(g.at[idx, "_file"], int(g.at[idx, "_row"]), "response_id",
                                    "give response_id, or item_id and system_id"))
        rubrics = data.rubrics
        if len(rubrics) == 1:
            _fill(g, "rubric_id", next(iter(rubrics)))
        for rid, versions in rubrics.items():
            if len(versions) == 1:
                _fill(g, "rubric_version", str(next(iter(versions))), g["rubric_id"] == rid)
    if "comparisons" in t:
        c = t["comparisons"]
        _fill(c, "rater_kind", "human")


def _fill(df: pd.DataFrame, column: str, value: str, where: pd.Series | None = None) -> None:
    """Set ``column`` to ``value`` where it is '' (and ``where`` is true); a text column is rebuilt in Arrow (a
    ``.loc`` assignment into Arrow strings converts every value)."""
    empty = df[column] == ""
    if where is not None:
        empty &= where
    if not empty.any():
        return
    if not isinstance(df[column].dtype, pd.StringDtype):
        df.loc[empty, column] = value
        return
    import pyarrow as pa
    import pyarrow.compute as pc

    filled = pc.if_else(pa.array(empty.to_numpy(dtype=bool)), pa.scalar(value, pa.large_string()),
                        pa.array(df[column], type=pa.large_string()))
    df[column] = _text_series(filled, index=df.index)


def _join(sep: str, *columns: pd.Series) -> pd.Series:
    """The text columns joined value by value with ``sep`` (``a + sep + b``), in Arrow: pandas' ``+`` on Arrow
    strings is about ten times slower."""
    import pyarrow as pa
    import pyarrow.compute as pc

    joined = pc.binary_join_element_wise(*(pa.array(c, type=pa.large_string()) for c in columns),
                                         pa.scalar(sep, pa.large_string()))
    return _text_series(joined, index=columns[0].index)


def _isin(s: pd.Series, values) -> pd.Series:
    """``s.isin(values)`` for a text column and text values (a column or any iterable), in Arrow: pandas' isin on
    Arrow strings converts the values one by one."""
    import pyarrow as pa
    import pyarrow.compute as pc

    value_set = pa.array(values if isinstance(values, pd.Series) else list(values), type=pa.large_string())
    found = pc.is_in(pa.array(s, type=pa.large_string()), value_set=value_set)
    return pd.Series(found.to_numpy(zero_copy_only=False), index=s.index)


def _unknown(df: pd.DataFrame, mask, column: str, message, problems: list[Problem]) -> None:
    for idx in df.index[mask]:
        problems.append(Problem(df.at[idx, "_file"], int(df.at[idx, "_row"]), column,
                                message(df.loc[idx]) if callable(message) else message))


def _references(data: SuiteData, problems: list[Problem], check_scores: bool = True,
                new_files: set[str] | None = None) -> None:
    t = data.tables
    items = t["items"]["item_id"] if "items" in t else ()
    for table in ("responses", "gold", "comparisons"):
        if table in t and "items" not in data.unreadable:
            df = t[table]
            _unknown(df, ~_isin(df["item_id"], items) & (df["item_id"] != ""), "item_id",
                     lambda r: f"unknown item {r['item_id']!r} (not in items)", problems)
    responses = t.get("responses")
    ids = responses["response_id"] if responses is not None else ()
    for table, cols in (("response_labels", ("response_id",)), ("ratings", ("response_id",)),
                        ("comparisons", ("response_id_a", "response_id_b"))):
        if table in t and "responses" not in data.unreadable:
            df = t[table]
            for col in cols:
                _unknown(df, ~_isin(df[col], ids) & (df[col] != "") & (df[col] != "\0unknown"), col,
                         lambda r, col=col: f"unknown response {r[col]!r} (not in responses)", problems)
    if "ratings" in t and check_scores:
        g = t["ratings"]
        _check_scores(data, g, problems, None if new_files is None else g["_file"].isin(new_files))
    if "ratings" in t:
        _check_one_kind_per_rater(t["ratings"], problems)
    if "comparisons" in t:
        c = t["comparisons"]
        _unknown(c, (c["response_id_a"] == c["response_id_b"]) & (c["response_id_a"] != ""), "response_id_b",
                 "a response cannot be compared with itself", problems)
        pref = pd.to_numeric(c["preference"].where(c["preference"] != ""), errors="coerce")
        _unknown(c, pref.notna() & ((pref < 0) | (pref > 1)), "preference", "preference must be within [0, 1]",
                 problems)
        _unknown(c, (c["preference"] == "") & (c["preference_label"] == ""), "preference",
                 "give preference or preference_label", problems)
        if responses is not None:
            item_of = dict(zip(responses["response_id"], responses["item_id"]))
            for col in ("response_id_a", "response_id_b"):
                _unknown(c, c[col].map(item_of).notna() & (c[col].map(item_of) != c["item_id"]), col,
                         lambda r, col=col: f"response {r[col]!r} does not answer item {r['item_id']!r}", problems)


def _check_one_kind_per_rater(g: pd.DataFrame, problems: list[Problem]) -> None:
    """A rater has one rater_kind in a suite: the marts group a rater's scores under one rater_id with its kind
    (fct_model_run_scores, int_effective_scores), so a person who also adjudicates, or a judge rated as human by
    mistake, needs a second rater id. The rows whose kind differs from the kind of the rater's first row (file
    order) are problems, on every row like the duplicate check; rows without a rater are reported elsewhere."""
    pairs = pa.Table.from_pandas(g[["rater_id", "rater_kind"]], preserve_index=False).group_by(
        ["rater_id", "rater_kind"]).aggregate([]).to_pandas()  # Arrow's hash grouping: 0.4 s for 8M rows
    pairs = pairs[pairs["rater_id"] != ""]
    if not pairs["rater_id"].duplicated().any():
        return
    named = g[g["rater_id"].isin(pairs.loc[pairs["rater_id"].duplicated(), "rater_id"])]
    first = named.drop_duplicates("rater_id").set_index("rater_id")
    differs = named["rater_kind"] != named["rater_id"].map(first["rater_kind"])
    _unknown(named, differs, "rater_kind",
             lambda r: (f"rater {r['rater_id']!r} is {r['rater_kind'] or 'empty'!r} here and "
                        f"{first.at[r['rater_id'], 'rater_kind']!r} at {first.at[r['rater_id'], '_file']}:"
                        f"{first.at[r['rater_id'], '_row']}; a rater has one kind in a suite (give these "
                        "ratings another rater id)"), problems)


def _check_scores(data: SuiteData, g: pd.DataFrame, problems: list[Problem], new: pd.Series | None = None) -> None:
    """Each rating's rubric, version, criterion and score against suite.yml (on the rows where ``new`` is true;
    every row when None), and no rating twice (response, rater, rubric, version, criterion) across every row.

    The rows that are in order (a declared criterion; a person's score one of its whole levels; a key no other row
    has) are found set-wise; the per-row walk that words the problems visits only the others."""
    rubrics = data.rubrics
    declared = {(rid, str(v), c): d for rid, vs in rubrics.items() for v, crits in vs.items() for c, d in crits.items()}
    sep = "\x1f"
    where = _join(sep, g["rubric_id"], g["rubric_version"], g["criterion"])
    levels = {f"{rid}{sep}{v}{sep}{c}{sep}{lv}" for (rid, v, c), d in declared.items()
              if isinstance(d.get("min_score"), int) and isinstance(d.get("max_score"), int)
              for lv in range(d["min_score"], d["max_score"] + 1)}
    in_order = _isin(where, {sep.join(k) for k in declared}) & (
        _isin(g["rater_kind"], _KEPT_AS_RECORDED) | _isin(_join(sep, where, g["score"]), levels))
    # a key another row has (compared column by column: the walk below words the duplicates exactly)
    key = g[["response_id", "rater_id", "rubric_id", "criterion"]].assign(
        rubric_version=g["rubric_version"].str.strip())
    walk = (~in_order | key.duplicated(keep=False)).to_numpy(dtype=bool)
    del key
    emits = (np.ones(len(g), dtype=bool) if new is None else new.to_numpy(dtype=bool))[walk].tolist()
    seen: dict[tuple, str] = {}
    cols = ["_file", "_row", "rubric_id", "rubric_version", "criterion", "score", "rater_kind", "response_id",
            "rater_id"]
    for own, (f, r, rid, ver, crit, score, kind, response, rater) in zip(emits, zip(*(g.loc[walk, c].tolist()
                                                                                  for c in cols))):
        out = problems if own else []  # a row of an earlier import: only the duplicate check spans it
        r, ver = int(r), ver.strip()
        if rid == "":
            out.append(Problem(f, r, "rubric_id", "rubric_id is required when the suite has several rubrics"
                               if rubrics else "the suite declares no rubric in suite.yml"))
            continue
        if rid not in rubrics:
            out.append(Problem(f, r, "rubric_id", f"unknown rubric {rid!r}"))
            continue
        if ver == "":
            out.append(Problem(f, r, "rubric_version", f"rubric {rid!r} has several versions: name one"))
            continue
        if not ver.lstrip("+-").isdigit():
            continue  # reported by the type expectation
        if int(ver) not in rubrics[rid]:
            out.append(Problem(f, r, "rubric_version", f"rubric {rid!r} has no version {ver}"))
            continue
        crits = rubrics[rid][int(ver)]
        if crit not in crits:
            if crit:
                out.append(Problem(f, r, "criterion", f"unknown criterion {crit!r} in rubric {rid!r} v{ver}"))
            continue
        score = score.strip()
        try:
            value = float(score)
        except ValueError:
            continue  # reported by the type expectation
        if value != value or value in (float("inf"), float("-inf")):
            continue  # nan / inf: reported by the type expectation
        c = crits[crit]
        recorded = kind in _KEPT_AS_RECORDED
        if not recorded and (value != int(value) or not c["min_score"] <= value <= c["max_score"]):
            out.append(Problem(f, r, "score", f"{crit}: score {score} is not a whole level within "
                               f"{c['min_score']}-{c['max_score']}"))
        key_ = (response, rater, rid, ver, crit)
        if response == "\0unknown" or rater == "":
            continue  # no response found or no rater: reported as such, never a duplicate of another such row
        if key_ in seen:
            problems.append(Problem(f, r, "criterion", f"duplicate rating of {key_[0]!r} by {key_[1]!r} on {crit} "
                                    f"(v{ver}); first at {seen[key_]}"))
        else:
            seen[key_] = f"{f}:{r}"


def check_suite(folder: Path, new_files=None) -> tuple[SuiteData, list[Problem]]:
    """Read and check one suite folder. Returns the data (text frames with defaults filled) and the problems.

    ``new_files`` (paths of data files in the folder; None: every file) limits the checks of single rows (missing
    columns, required values, types, allowed values, JSON objects, a rating's rubric, version, criterion and
    score) to the rows of those files, as when an import adds files to a suite whose files were checked when they
    came in. suite.yml, unique keys, references between files, defaults and duplicate ratings are checked on every
    row either way."""
    folder = Path(folder)
    new = None if new_files is None else {_rel(Path(f)) for f in new_files}
    problems: list[Problem] = []
    data = SuiteData(name=folder.name, folder=folder)
    if not SUITE_NAME.match(folder.name):
        problems.append(Problem(_rel(folder), 0, "", "a suite folder's name must be lower-case letters, digits and "
                                "underscores, starting with a letter"))
    if not (folder / "suite.yml").is_file():
        problems.append(Problem(_rel(folder / "suite.yml"), 0, "", "missing suite.yml (run `evalhouse suite init`)"))
        return data, problems
    data.spec, lines = _read_spec(folder, problems)
    data.spec_lines = lines
    data.rubrics = _expand_rubrics(data.spec, lines, _rel(folder / "suite.yml"), problems)
    _check_answer_rules(data.spec, lines, _rel(folder / "suite.yml"), problems)
    spec_ok = not problems
    packs = _read_packs(folder, data.spec, lines, problems) if isinstance(data.spec.get("pack_dir"), str) else None
    data.tables = packs.tables if packs is not None else read_table_files(folder, problems, data.unreadable)
    for table, df in data.tables.items():
        present = {}
        for f in df["_file"].unique():
            present[f] = packs.present[table] if packs is not None else _present_columns(folder, f)
        before = len(problems)
        _expectations(df, table, present, problems, new)
        if any(p.message.startswith("missing required column") for p in problems[before:]):
            # its keys cannot be told apart: the checks across tables would only echo the missing column
            data.unreadable.add(table)
        _json_objects(df if new is None else df[df["_file"].isin(new)], table, problems)
    if "responses" in data.tables and "items" not in data.tables and not _has_table_file(folder, "items"):
        problems.append(Problem(_rel(folder), 0, "", "responses need an items file"))
    _fill_defaults(data, problems)
    # Scores against a broken suite.yml would only echo it.
    _references(data, problems, check_scores=spec_ok, new_files=new)
    baseline = data.spec.get("baseline") if isinstance(data.spec, dict) else None
    if isinstance(baseline, str) and "responses" in data.tables and \
            baseline not in set(data.tables["responses"]["system_id"]):
        problems.append(Problem(_rel(folder / "suite.yml"), _line(lines, ("baseline",)), "baseline",
                                f"baseline {baseline!r} is not a system_id of the suite's responses"))
    if packs is not None:
        problems = [packs.in_pack_terms(p) for p in problems]
    return data, problems


def suite_notes(data: SuiteData) -> list[Problem]:
    """What a suite that passed its check still lacks, as ``file:row:column: message`` notes (kind 'note'): no
    data file at all (a folder just made by ``evalhouse suite init``: it lands its rubric and nothing to score),
    and an empty licence or attribution in suite.yml (the scaffold leaves both empty). Notes do not fail a check."""
    notes: list[Problem] = []
    if not data.tables and not data.unreadable:
        notes.append(Problem(_rel(data.folder), 0, "", "no data files yet (" + ", ".join(TABLES) + "): only its "
                             "rubric lands, with nothing to score", kind="note"))
    spec = data.spec if isinstance(data.spec, dict) else {}
    for key, what in (("licence", "under which licence the data may be used and shared"),
                      ("attribution", "who made the data, and where it comes from")):
        if key in spec and not str(spec[key] or "").strip():
            notes.append(Problem(_rel(data.folder / "suite.yml"), _line(data.spec_lines, (key,)), key,
                                 f"{key} is empty: say {what}", kind="note"))
    return notes


def rater_kinds(folder: Path) -> dict[str, list[tuple[str, str]]]:
    """rater_id -> [(rater_kind, file), ...] of the ratings of a suite folder as they are now (built or not): every
    kind the next build lands for the rater (an empty kind is human, the contract's default; values as they land, a
    Parquet float id as ``8.0``), each with the first file (file order) that gives it; one kind per rater unless the
    suite's files disagree (`suite check` reports that). Ratings files are CSV, JSONL or Parquet (only the two
    columns are read: 8M Parquet rows in about a second, 1M CSV rows in a quarter of one); a suite whose tables
    come from GRADE packs (pack_dir) gives its pack judges (judge_ratings.csv). Empty for a folder without a
    readable suite.yml; files that cannot be read give nothing (`suite check` reports them). Raises nothing."""
    folder = Path(folder)
    try:
        spec = load_suite_yaml((folder / "suite.yml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    if not isinstance(spec, dict):
        return {}
    if "pack_dir" in spec:
        if not isinstance(spec["pack_dir"], str):
            return {}
        g = _read_packs(folder, spec, {}, []).tables.get("ratings")
        files = [] if g is None else [
            (f, {c: pa.array(g.loc[g["_file"] == f, c].astype(str).tolist()) for c in ("rater_id", "rater_kind")
                 if c in g.columns}) for f in g["_file"].unique()]
        pairs = [(f, _rater_kind_pairs_of(columns)) for f, columns in files]
    else:
        pairs = [(_rel(f), _rater_kind_pairs(f)) for f in _table_files(folder, []).get("ratings", [])]
    out: dict[str, list[tuple[str, str]]] = {}
    for f, found in pairs:
        for rater_id, kind in found:
            kinds = out.setdefault(rater_id, [])
            if all(k != kind for k, _ in kinds):
                kinds.append((kind, f))
    return out


def _rater_kind_pairs(path: Path) -> list[tuple[str, str]]:
    """The distinct (rater_id, rater_kind) of one ratings file as it lands (values as they are: Parquet columns
    through ``_text_column``, as landing reads them), rater_id not empty, an empty kind as human, sorted; [] when
    the file cannot be read."""
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        try:
            names = set(pq.read_schema(path).names)
            table = pq.read_table(path, columns=[c for c in ("rater_id", "rater_kind") if c in names])
        except Exception:  # noqa: BLE001 - an unreadable file is suite check's problem, not this lookup's
            return []
        columns = {c: pa.array(_text_column(table.column(c), False)) for c in table.column_names}
    else:
        columns = _csv_rater_columns(path) if path.suffix.lower() == ".csv" else None
        if columns is None:
            df = _read_file(path, [])
            if df is None:
                return []
            columns = {c: pa.array(df[c].astype(str).tolist()) for c in ("rater_id", "rater_kind") if c in df.columns}
    return _rater_kind_pairs_of(columns)


def _csv_rater_columns(path: Path) -> dict[str, pa.Array] | None:
    """rater_id and rater_kind of a CSV file by Arrow's reader, as text (1M rows: well under a second, where the
    full reader takes about 7 s and 1.4 GB); None when Arrow cannot read it as the full reader would (a repeated
    header name, no rater_id column, invalid UTF-8, a row with the wrong number of fields): the caller falls back."""
    import pyarrow.csv as pacsv

    try:
        header = _csv_header(path)
        wanted = [c for c in ("rater_id", "rater_kind") if c in header]
        if len(set(header)) != len(header) or "rater_id" not in wanted:
            return None
        table = pacsv.read_csv(
            path, read_options=pacsv.ReadOptions(column_names=header, skip_rows=1),
            # a line of blanks (or of empty fields) is skipped, as the full reader skips it
            parse_options=pacsv.ParseOptions(newlines_in_values=True, invalid_row_handler=_skip_blank_row),
            convert_options=pacsv.ConvertOptions(include_columns=wanted,
                                                 column_types={c: pa.large_string() for c in wanted},
                                                 strings_can_be_null=False, quoted_strings_can_be_null=False))
    except (OSError, UnicodeDecodeError, StopIteration, ValueError, pa.ArrowException):
        return None
    return {c: table.column(c).combine_chunks() for c in wanted}


def _skip_blank_row(row) -> str:
    """Arrow's handler of a row with another number of fields: skip it when it holds nothing but blanks and
    separators; else the file is read by the full reader, which reports it."""
    return "skip" if not row.text.strip(" \t\r\n,") else "error"


def _rater_kind_pairs_of(columns: dict[str, pa.Array]) -> list[tuple[str, str]]:
    import pyarrow.compute as pc

    if "rater_id" not in columns:
        return []
    raters = pc.fill_null(columns["rater_id"].cast(pa.large_string()), "")
    kinds = columns.get("rater_kind", pa.nulls(len(raters), pa.large_string())).cast(pa.large_string())
    kinds = pc.if_else(pc.equal(pc.fill_null(kinds, ""), ""), "human", kinds)
    found = pa.table({"rater_id": raters, "rater_kind": kinds}).group_by(["rater_id", "rater_kind"]).aggregate([])
    return sorted((r["rater_id"], r["rater_kind"]) for r in found.to_pylist() if r["rater_id"])


def _has_table_file(folder: Path, table: str) -> bool:
    """True when the folder holds a data file of ``table`` (readable or not: a broken one has its own problem)."""
    return bool(_table_files(folder, []).get(table))


def _read_packs(folder: Path, spec: dict, lines: dict, problems: list[Problem]):
    """The tables of a suite whose suite.yml names ``pack_dir``: GRADE packs converted to the contract's tables
    (evalhouse.grade.packs). Such a suite has no data files of its own."""
    from evalhouse.grade.packs import PackTables, read_packs

    name, where = _rel(folder / "suite.yml"), _line(lines, ("pack_dir",))
    own = [f for files in _table_files(folder, []).values() for f in files]
    for f in own:
        problems.append(Problem(_rel(f), 0, "", f"a suite with pack_dir takes its tables from the packs "
                                f"({name}:{where}); move this file into a pack or out of the suite"))
    root = folder / spec["pack_dir"]
    if not root.is_dir():
        problems.append(Problem(name, where, "pack_dir", f"pack_dir {spec['pack_dir']!r}: no folder {_rel(root)}"))
        return PackTables()
    return read_packs(root, problems)


def _present_columns(folder: Path, rel_file: str) -> set[str]:
    """The columns a file actually has (a stacked frame has every contract column)."""
    path = Path(rel_file)
    if path.suffix.lower() == ".csv":
        return set(_csv_header(path))
    if path.suffix.lower() == ".parquet":
        import pyarrow.parquet as pq

        return set(pq.read_schema(path).names)
    cols: set[str] = set()
    for _, row in _read_jsonl(path):
        cols |= set(row)
    return cols
