"""Land every checked suite for dbt: one Parquet file per contract table, all suites stacked.

``evalhouse suite land`` (the first step of ``make build``) checks every suite folder under ``suites/``; when any
suite has a problem nothing is landed and the build stops, so the previous published warehouse stays as it was.
Otherwise it writes ``<landing>/<table>.parquet`` (default ``warehouse/build/landing``; ``$EVALHOUSE_LANDING_DIR``
overrides) for the data tables (``items`` ... ``comparisons``) and for the tables derived from each suite.yml
(``suites``, ``rubric_levels``, ``rubric_versions``, ``rubric_rules``, ``suite_systems``, ``answer_rules``).
These files are the dbt sources of the ``suites`` source (models/staging/suites/_suites__sources.yml): values are
text as written (booleans and
timestamps normalised), and the staging models cast them to the contract's types. A table no suite has is written
with its columns and no rows, so no placeholder model is needed.
"""
from __future__ import annotations

import functools
import io
import os
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from evalhouse import files, paths
from evalhouse.grade.packs import _PACK_COLUMNS
from evalhouse.runtime import gc_paused
from evalhouse.suites.check import (
    EMPTY,
    Problem,
    SuiteData,
    _isin,
    _join,
    _rel,
    _repeat_text,
    check_suite,
    suite_folders,
)
from evalhouse.suites.contract import TABLES

__all__ = ["landing_dir", "suites_root", "check_all", "land", "landing_is_current", "suites_fingerprint",
           "LANDED_COLUMNS"]

FINGERPRINT_FILE = "_fingerprint.txt"

_META = ["suite", "source_file", "source_row"]
LANDED_COLUMNS: dict[str, list[str]] = {
    **{t: _META + spec.names for t, spec in TABLES.items()},
    "suites": ["suite", "title", "description", "licence", "attribution", "first_filter", "grounding", "folder"],
    "rubric_levels": ["suite", "rubric_id", "rubric_version", "criterion", "criterion_order", "criterion_description",
                      "min_score", "max_score", "direction", "level", "anchor", "example"],
    "rubric_versions": ["suite", "rubric_id", "rubric_version", "effective_from", "changed_criteria", "change_note"],
    "rubric_rules": ["suite", "rubric_id", "rule", "criterion", "weight"],
    "suite_systems": ["suite", "name", "family", "is_baseline"],
    "answer_rules": ["suite", "gold_kind", "answer_rule"],
}


def suites_root() -> Path:
    return paths.project_dir() / "suites"


def landing_dir() -> Path:
    env = os.environ.get("EVALHOUSE_LANDING_DIR")
    return Path(env).resolve() if env else paths.project_dir() / "warehouse" / "build" / "landing"


def _pack_dirs(root: Path) -> list[Path]:
    """The pack folders that suite.yml files under ``root`` name (``pack_dir``), wherever they are."""
    import yaml

    from evalhouse.suites.check import load_suite_yaml

    out = []
    for f in sorted(root.glob("*/suite.yml")):
        try:
            spec = load_suite_yaml(f.read_text(encoding="utf-8-sig"))
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue  # the check reports it
        if isinstance(spec, dict) and isinstance(spec.get("pack_dir"), str) and (f.parent / spec["pack_dir"]).is_dir():
            out.append((f.parent / spec["pack_dir"]).resolve())
    return out


def suites_fingerprint(root: Path | None = None) -> str:
    """sha256 over every file under the suites folder and the pack folders its suites name (relative path and
    bytes) and over evalhouse's own source and schema files (the check and landing use several of its modules):
    equal fingerprints mean a new check and landing would give the same files."""
    import hashlib

    root = Path(root) if root else suites_root()
    h = hashlib.sha256()
    package = Path(files.__file__).parent
    code = sorted(p for p in package.rglob("*") if p.suffix in (".py", ".json") and "__pycache__" not in p.parts)
    data = [p for d in [root, *_pack_dirs(root)] for p in files.files_under(d)]
    for f in code + data:
        h.update(str(f.relative_to(package) if f.is_relative_to(package) else os.path.relpath(f, root)).encode()
                 + b"\0")
        h.update(hashlib.sha256(f.read_bytes()).digest())
    return h.hexdigest()


def landing_is_current(fingerprint: str, target: Path | None = None) -> bool:
    """True when ``target`` holds every landing file, written by a landing of suites with this fingerprint."""
    target = Path(target) if target else landing_dir()
    stamp = target / FINGERPRINT_FILE
    return (stamp.is_file() and stamp.read_text().strip() == fingerprint
            and all((target / f"{t}.parquet").is_file() for t in LANDED_COLUMNS))


def check_all(root: Path | None = None, names: list[str] | None = None) -> tuple[list[SuiteData], list[Problem]]:
    """Check the named suites (default: every folder with a suite.yml). Unknown names are problems."""
    with gc_paused():  # millions of rows as Python objects (a GRADE pack's JSON lines): no collection walks them
        return _check_all(Path(root) if root else suites_root(), names)


def _check_all(root: Path, names: list[str] | None) -> tuple[list[SuiteData], list[Problem]]:
    folders = suite_folders(root)
    problems: list[Problem] = []
    if names:
        by_name = {f.name: f for f in folders}
        for n in names:
            if n not in by_name:
                known = ", ".join(sorted(by_name)) or "none"
                problems.append(Problem(_rel(root / n), 0, "", f"no suite {n!r} (no {_rel(root / n / 'suite.yml')}; "
                                        f"suites: {known})"))
        folders = [by_name[n] for n in names if n in by_name]
    out = []
    for folder in folders:
        data, probs = check_suite(folder)
        out.append(data)
        problems.extend(probs)
    problems.extend(_collisions(out))
    problems.extend(_store_kind_conflicts(out))
    return out, problems


def _store_kind_conflicts(suites: list[SuiteData], store_dir: Path | None = None) -> list[Problem]:
    """A rater has one kind in a suite, across the suite's files and the ratings store (data/ratings/<suite>/):
    a suite file row that gives a rater another kind than the store's rows do is a problem naming the store row
    (the store is append-only, so the suite file is the one to change). Every such row is named, as the check
    within the suite's files does. An empty kind in the store is human, as the build reads it."""
    from evalhouse.ratings.store import existing_keys

    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    if not store_dir.is_dir() or not any(s.tables.get("ratings") is not None for s in suites):
        return []
    _seen, stored = existing_keys(store_dir)
    problems: list[Problem] = []
    for s in suites:
        g = s.tables.get("ratings")
        ours = {rater: kind_where for (suite, rater), kind_where in stored.items() if suite == s.name and rater}
        if g is None or not ours:
            continue
        # the rows of a rater the store has, whose (rater, kind) is not the store's: set-wise in Arrow, so only
        # the conflicting rows (few, if any) are visited (taking every row of the store's raters first, all 8M
        # of a million replies when the store rates them too, took 3 s)
        sep = "\x1f"
        agreed = {f"{rater}{sep}{kind}" for rater, (kind, _) in ours.items()}
        conflict = _isin(g["rater_id"], list(ours)) & ~_isin(_join(sep, g["rater_id"], g["rater_kind"]), agreed)
        for idx in g.index[conflict.to_numpy(dtype=bool)]:
            rater = g.at[idx, "rater_id"]
            kind, where = ours[rater]
            file, _, row = where.rpartition(":")
            where = f"{_rel(Path(file))}:{row}"
            file_of_row = g.at[idx, "_file"]
            # a GRADE pack's judge_ratings.csv has no rater_kind: its rater id columns are the ones to change
            column = _PACK_COLUMNS.get(Path(file_of_row).name, {}).get("rater_id", "rater_kind")
            problems.append(Problem(file_of_row, int(g.at[idx, "_row"]), column,
                                    f"rater {rater!r} is {g.at[idx, 'rater_kind']!r} here and {kind!r} in the "
                                    f"ratings store at {where}; a rater has one kind in a suite (give these ratings "
                                    "another rater id: the store is append-only)"))
    return problems


def _collisions(suites: list[SuiteData]) -> list[Problem]:
    """A response_id must name one response across every suite (the ratings store refers to it alone), and a
    rubric_id one rubric (ratings and the rubric marts are keyed by it without the suite)."""
    owner: dict[str, tuple[str, str, int]] = {}
    problems = _rubric_collisions(suites)
    frames = [(s, s.tables["responses"]) for s in suites if s.tables.get("responses") is not None]
    # the ids more than one suite uses, found set-wise; only their rows are walked, in order
    ids = pd.concat([pd.DataFrame({"id": df["response_id"], "suite": s.name}).drop_duplicates() for s, df in frames]
                    )["id"] if frames else pd.Series([], dtype=object)
    shared = set(ids[ids.duplicated()])
    for s, df in frames:
        if not shared:
            break
        walk = df["response_id"].isin(shared).to_numpy(dtype=bool)
        for rid, f, r in zip(*(df.loc[walk, c].tolist() for c in ("response_id", "_file", "_row"))):
            if rid in owner and owner[rid][0] != s.name:
                o = owner[rid]
                problems.append(Problem(f, int(r), "response_id", f"response_id {rid!r} is also used by suite "
                                        f"{o[0]!r} ({o[1]}:{o[2]}); ids must be unique across suites"))
            else:
                owner.setdefault(rid, (s.name, f, int(r)))
    return problems


def _rubric_collisions(suites: list[SuiteData]) -> list[Problem]:
    rubric_owner: dict[str, str] = {}
    problems = []
    for s in suites:
        rubrics = s.spec.get("rubrics") if isinstance(s.spec, dict) else None
        for i, rubric in enumerate(rubrics if isinstance(rubrics, list) else []):
            rid = rubric.get("rubric_id") if isinstance(rubric, dict) else None
            if not isinstance(rid, str):
                continue
            if rid in rubric_owner and rubric_owner[rid] != s.name:
                line = s.spec_lines.get(("rubrics", i, "rubric_id"), 0)
                problems.append(Problem(_rel(s.folder / "suite.yml"), line, "rubric_id",
                                        f"rubric_id {rid!r} is also used by suite {rubric_owner[rid]!r}; "
                                        "rubric ids must be unique across suites"))
            else:
                rubric_owner.setdefault(rid, s.name)
    return problems


def _by_value(values: pd.Series, convert) -> pa.Array:
    """``convert`` (a function of a Series) applied to each distinct value of ``values`` once, the results put back
    in place: a column of a few distinct values (booleans, repeated timestamps) is converted at the cost of those."""
    codes, uniques = pd.factorize(values, use_na_sentinel=False)
    converted = convert(pd.Series(uniques, dtype=values.dtype))
    return pa.array(converted, type=pa.large_string()).take(pa.array(codes))


def _bool_text(values: pd.Series) -> pd.Series:
    return values.str.strip().str.lower().map({"true": "true", "1": "true", "false": "false", "0": "false"}).fillna("")


def _timestamp_text(values: pd.Series) -> pd.Series:
    out = values.astype(object).copy()
    present = values != ""
    if present.any():
        ts = pd.to_datetime(values[present].str.strip(), utc=True, format="ISO8601")
        out[present] = ts.dt.tz_localize(None).dt.strftime("%Y-%m-%d %H:%M:%S.%f")
    return out


def _normalised(df: pd.DataFrame, table: str, column: str) -> pd.Series | pa.Array:
    """One column of a suite's frame as landed: booleans as true / false ('' when missing), timestamps as
    ``YYYY-MM-DD HH:MM:SS.ffffff`` UTC (naive), integers and decimals stripped, other text as it is."""
    spec = TABLES[table].column(column)
    values = df[column]
    if spec is None:
        return values
    if spec.type == "boolean":
        return _by_value(values, _bool_text)
    if spec.type == "timestamp":
        return _by_value(values, _timestamp_text)
    if spec.type in ("integer", "decimal"):
        return values.str.strip()
    return values


def _text_array(values: pd.Series | pa.Array) -> pa.Array:
    """A text column as landed: '' is missing (NULL) and EMPTY a kept empty string; pa.string(). Arrow-backed
    text is taken as it is (no Python object per value); Python strings (a GRADE pack's columns) by Arrow, None as
    missing; anything else as ``str`` of each value."""
    if isinstance(values, pd.Series) and not isinstance(values.dtype, pd.StringDtype):
        try:  # 5M Python strings: 1 s, against 4 s through fillna and astype(str)
            values = pa.array(values.to_numpy(dtype=object), type=pa.large_string(), from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError):  # values that are not all strings
            values = values.fillna("").astype(str)
    arr = pa.array(values, type=pa.large_string()) if not isinstance(values, (pa.Array, pa.ChunkedArray)) else values
    if len(arr) and arr.null_count == 0 and pc.max(pc.binary_length(arr)).as_py() == 0:
        return _nulls(len(arr))  # an absent column: every value missing
    # each replacement only where it has something to replace (most columns have no EMPTY; 8M values: 1 s each)
    missing = pc.equal(arr, "")
    if pc.any(missing).as_py():
        arr = pc.if_else(missing, pa.scalar(None, pa.large_string()), arr)
    kept_empty = pc.equal(arr, EMPTY)
    if pc.any(kept_empty).as_py():
        arr = pc.if_else(kept_empty, "", arr)
    return arr.cast(pa.string())


@functools.lru_cache(maxsize=4)
def _nulls(n: int) -> pa.Array:
    """``n`` NULL strings: one array shared by the landing table's missing columns (Arrow arrays are immutable)."""
    return pa.nulls(n, pa.string())


def _suite_part(df: pd.DataFrame, table: str, suite: str) -> pa.Table:
    """One suite's rows of a data table as a landing table (LANDED_COLUMNS[table], in that order)."""
    n = len(df)
    arrays = []
    for c in LANDED_COLUMNS[table]:
        if c == "suite":
            arrays.append(_text_array(_repeat_text(suite, n)))
        elif c == "source_file":
            arrays.append(_text_array(df["_file"]))
        elif c == "source_row":
            # the row's number among its file's data rows, 1 = first (check.read_table_files, grade.packs): not
            # the CSV line the problems name (the header is line 1)
            arrays.append(pa.array(pd.to_numeric(df["_source_row"], errors="coerce").astype("Int64"),
                                   type=pa.int64()))
        elif c in df.columns:
            arrays.append(_text_array(_normalised(df, table, c)))
        else:
            arrays.append(_nulls(n))
    return pa.Table.from_arrays(arrays, names=LANDED_COLUMNS[table])


def _rubric_frames(s: SuiteData) -> dict[str, list[dict]]:
    spec = s.spec
    rows: dict[str, list[dict]] = {"rubric_levels": [], "rubric_versions": [], "rubric_rules": []}
    for rubric in spec.get("rubrics") or []:
        rid = rubric["rubric_id"]
        for v in rubric.get("versions") or []:
            crits = s.rubrics.get(rid, {}).get(v["version"], {})
            changed = [c for c, d in crits.items() if d.get("_changed") and v is not (rubric["versions"][0])]
            rows["rubric_versions"].append({"suite": s.name, "rubric_id": rid, "rubric_version": str(v["version"]),
                                            "effective_from": v.get("effective_from", ""),
                                            "changed_criteria": ",".join(changed),
                                            "change_note": v.get("change_note", "")})
            for cname, c in crits.items():
                for lv in c["levels"]:
                    rows["rubric_levels"].append({
                        "suite": s.name, "rubric_id": rid, "rubric_version": str(v["version"]), "criterion": cname,
                        "criterion_order": str(c["order"]), "criterion_description": c.get("description", ""),
                        "min_score": str(c["min_score"]), "max_score": str(c["max_score"]),
                        "direction": c["direction"], "level": str(lv["level"]), "anchor": lv["anchor"],
                        "example": lv.get("example", "")})
        for rule, crits in (rubric.get("decision_rule") or {}).items():
            for cname in crits:
                rows["rubric_rules"].append({"suite": s.name, "rubric_id": rid, "rule": rule, "criterion": cname,
                                             "weight": ""})
        for cname, w in (rubric.get("composite_weights") or {}).items():
            rows["rubric_rules"].append({"suite": s.name, "rubric_id": rid, "rule": "composite_weight",
                                         "criterion": cname, "weight": repr(float(w))})
    return rows


def _system_rows(suite: str, spec: dict) -> list[dict]:
    """suite.yml's ``families`` (system or judge -> family) and ``baseline``: one row per name."""
    families = spec.get("families") or {}
    baseline = spec.get("baseline")
    names = list(families) + ([baseline] if baseline and baseline not in families else [])
    return [{"suite": suite, "name": n, "family": families.get(n, ""),
             "is_baseline": "true" if n == baseline else "false"} for n in names]


def _schema(table: str) -> pa.Schema:
    return pa.schema([(c, pa.int64() if c == "source_row" else pa.string()) for c in LANDED_COLUMNS[table]])


def _write(table: str, records: pd.DataFrame | pa.Table, target: Path) -> None:
    """One landing file: a frame of text (derived tables) or a landing table (data tables)."""
    cols = LANDED_COLUMNS[table]
    if isinstance(records, pd.DataFrame):
        frame = records.reindex(columns=cols).fillna("")
        arrays = [pa.array(pd.to_numeric(frame[c], errors="coerce").astype("Int64"), type=pa.int64())
                  if c == "source_row" else _text_array(frame[c].astype(str)) for c in cols]
        records = pa.Table.from_arrays(arrays, names=cols)
    buf = io.BytesIO()
    pq.write_table(records, buf)
    files.write_replace(target / f"{table}.parquet", buf.getvalue())


def land(suites: list[SuiteData], target: Path | None = None, fingerprint: str | None = None) -> dict[str, int]:
    """Write the landing files for checked suites; returns rows per table. With ``fingerprint``
    (suites_fingerprint() taken before the check), it is written last, so landing_is_current() is true only after a
    complete landing."""
    target = Path(target) if target else landing_dir()
    (target / FINGERPRINT_FILE).unlink(missing_ok=True)
    counts = {}
    for table in TABLES:
        parts = [_suite_part(s.tables[table], table, s.name) for s in suites
                 if s.tables.get(table) is not None and not s.tables[table].empty]
        frame = pa.concat_tables(parts) if parts else _schema(table).empty_table()
        _write(table, frame, target)
        counts[table] = frame.num_rows
        del parts, frame
    derived: dict[str, list[dict]] = {"suites": [], "rubric_levels": [], "rubric_versions": [], "rubric_rules": [],
                                      "suite_systems": [], "answer_rules": []}
    for s in suites:
        spec = s.spec
        derived["suites"].append({
            "suite": s.name, "title": spec.get("title", ""), "description": spec.get("description", ""),
            "licence": spec.get("licence", ""), "attribution": spec.get("attribution", ""),
            "first_filter": "true" if spec.get("first_filter") else "false",
            "grounding": "true" if spec.get("grounding") else "false",
            "folder": os.path.relpath(s.folder, paths.project_dir())})
        for k, v in _rubric_frames(s).items():
            derived[k].extend(v)
        derived["suite_systems"].extend(_system_rows(s.name, spec))
        for kind, rules in (spec.get("answer_rules") or {}).items():
            derived["answer_rules"].extend({"suite": s.name, "gold_kind": kind, "answer_rule": r} for r in rules)
    for table, rows in derived.items():
        _write(table, pd.DataFrame(rows, columns=LANDED_COLUMNS[table]), target)
        counts[table] = len(rows)
    if fingerprint:
        files.write_replace(target / FINGERPRINT_FILE, fingerprint.encode())
    return counts
