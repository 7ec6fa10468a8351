"""int_reliability_unit_patterns, read group by group: the counts the reliability marts compute from.

The model (models/intermediate/reliability/int_reliability_unit_patterns.sql) has one row per suite x task x rubric
version x criterion x coder-set part x system x human pattern: the human raters' rows (judge_rater_id NULL) count
every response with a human rating row by its usable human scores (human_scores: {rater_id, score_value} in rater_id
order); a judge's rows count the responses it scored by their human pattern and the judge's score (judge_score).
:func:`read_groups` turns the rows of each group into numpy arrays (:class:`Patterns`); :func:`pattern_relation`
runs the model's own SQL on int_reliability_scores-shaped rows (a DataFrame: tests, benchmarks).
"""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from evalhouse.stats.unit_patterns import UnitPatterns

GROUP = ["suite", "task", "rubric_id", "rubric_version", "criterion"]
MODEL = "int_reliability_unit_patterns"


@dataclass
class Patterns:
    """Rows of one group and coder-set part. Row r: system[r], units[r] responses whose usable human scores are
    values[offsets[r]:offsets[r + 1]] by the raters rater_names[raters[...]] (in rater_id order); for a judge's rows
    judge_score[r] is the judge's score of those responses (NaN for the humans' rows)."""

    system: np.ndarray
    units: np.ndarray
    offsets: np.ndarray
    raters: np.ndarray
    values: np.ndarray
    judge_score: np.ndarray
    system_codes: np.ndarray
    n_excluded: np.ndarray
    min_score: np.ndarray
    max_score: np.ndarray
    rater_names: list[str]

    @property
    def sizes(self) -> np.ndarray:
        return np.diff(self.offsets)

    def human(self, keep: np.ndarray | None = None) -> UnitPatterns:
        """The rows' human scores (rows where ``keep``, default every row with a usable score) as UnitPatterns."""
        keep = self.sizes > 0 if keep is None else keep
        sizes = self.sizes[keep]
        idx = np.repeat(keep, self.sizes)
        return UnitPatterns(self.values[idx], np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                            self.units[keep].astype(np.int64))

    def with_judge(self) -> UnitPatterns:
        """A judge's rows as UnitPatterns: each row's human scores and the judge's score."""
        sizes = self.sizes
        out_offsets = np.concatenate([[0], np.cumsum(sizes + 1)]).astype(np.int64)
        out = np.empty(out_offsets[-1])
        out[np.arange(self.values.size) + np.repeat(np.arange(sizes.size), sizes)] = self.values
        out[out_offsets[1:] - 1] = self.judge_score
        return UnitPatterns(out, out_offsets, self.units.astype(np.int64))

    def padded(self, width: int) -> np.ndarray:
        """rows x (1 + 2 width) int64: each row's system code, then its rater codes and the bits of its values,
        padded with -1 (a row's human pattern as one comparable record; width >= the longest pattern)."""
        out = np.full((self.units.size, 1 + 2 * width), -1, dtype=np.int64)
        out[:, 0] = self.system_codes
        sizes = self.sizes
        row = np.repeat(np.arange(sizes.size), sizes)
        pos = np.arange(self.values.size) - np.repeat(self.offsets[:-1], sizes)
        out[row, 1 + pos] = self.raters
        out[row, 1 + width + pos] = self.values.view(np.int64)
        return out


@dataclass
class Group:
    key: dict
    humans: Patterns | None
    judges: dict[str, Patterns] = field(default_factory=dict)
    judge_kinds: dict[str, str] = field(default_factory=dict)


def _typed_scores_sql(view: str) -> str:
    """int_reliability_scores-shaped rows with text as VARCHAR (a pandas categorical arrives as an ENUM, which sorts
    and compares by position; NaN arrives as NULL)."""
    return f"""
        select cast(suite as varchar) as suite, cast(task as varchar) as task,
               cast(rubric_id as varchar) as rubric_id, cast(rubric_version as integer) as rubric_version,
               cast(criterion as varchar) as criterion, cast(min_score as integer) as min_score,
               cast(max_score as integer) as max_score, cast(response_id as varchar) as response_id,
               cast(system_id as varchar) as system_id, cast(rater_id as varchar) as rater_id,
               cast(rater_kind as varchar) as rater_kind, cast(score_value as double) as score_value,
               cast(n_excluded as bigint) as n_excluded
        from {view}"""


# config(...) up to the first ") }}" outside a quoted string (a pre_hook holds its own "{{ ... }}")
_CONFIG = re.compile(r"""\{\{\s*config\((?:[^"']|"[^"]*"|'[^']*')*?\)\s*\}\}""")


# a "-- depends_on: {{ ref(...) }}" line: an order of dbt's build (the chain's large queries one at a time), no SQL
_DEPENDS_ON = re.compile(r"^--\s*depends_on:.*$", re.MULTILINE)


def _render(name: str, refs: dict[str, str]) -> str:
    """The SQL of model ``name`` (models/intermediate/reliability/) with its config() and depends_on lines removed,
    each ref() in ``refs`` replaced and affected_responses(...) and affected_suites(...) (macros/rating_chain.sql)
    true: the SQL of a full build."""
    from evalhouse import paths

    path = paths.project_dir() / "models" / "intermediate" / "reliability" / f"{name}.sql"
    sql = _DEPENDS_ON.sub("", _CONFIG.sub("", path.read_text(encoding="utf-8")))
    for model, source in refs.items():
        sql = re.sub(r"\{\{\s*ref\('" + model + r"'\)\s*\}\}", lambda _m, s=source: s, sql)
    sql = re.sub(r"\{\{\s*affected_(?:responses|suites)\([^)]*\)\s*\}\}", "true", sql)
    if "{{" in sql or "{%" in sql:
        raise ValueError(f"{path}: a Jinja expression this renderer does not know")
    return sql


def model_sql(source: str) -> str:
    """The SQL of int_reliability_unit_patterns (over int_reliability_units) with ``source`` in place of
    ref('int_reliability_scores')."""
    units = _render("int_reliability_units", {"int_reliability_scores": source})
    return _render(MODEL, {"int_reliability_units": f"(\n{units}\n)"})


def pattern_relation(scores):
    """(int_reliability_unit_patterns relation, int_reliability_scores relation, connection) computed from
    int_reliability_scores-shaped rows: a pandas DataFrame (in a new in-memory DuckDB) or a DuckDB relation."""
    import duckdb

    if isinstance(scores, pd.DataFrame):
        con = duckdb.connect()
        con.register("reliability_scores_input", scores)
        typed = con.sql(_typed_scores_sql("reliability_scores_input"))
    else:
        con = None
        typed = scores.query("reliability_scores_input", _typed_scores_sql("reliability_scores_input"))
    return typed.query("int_reliability_scores", model_sql("int_reliability_scores")), typed, con


def _arrow(relation, sql: str):
    table = relation.query("patterns", sql).arrow()
    return table.read_all() if hasattr(table, "read_all") else table


def read_groups(patterns, judges: bool = True) -> Iterator[Group]:
    """The groups of int_reliability_unit_patterns (a DuckDB relation), in suite x task x rubric_id x
    rubric_version x criterion order (NULLs last); with judges=False the human raters' rows only."""
    import pyarrow.compute as pc

    where = "" if judges else "where judge_rater_id is null"
    table = _arrow(patterns, f"""
        select {", ".join(GROUP)}, judge_rater_id, judge_rater_kind, system_id, human_scores, judge_score, n_units,
               n_ratings_excluded, min_score, max_score, cast(human_scores as varchar) as pattern_key
        from patterns {where}""")
    if table.num_rows == 0:
        return
    # rows in group x judge (humans first) x system x pattern order, sorted here (a DuckDB ORDER BY moves the lists
    # too): a total order, so that the sums over a group's patterns, and the statistics, do not depend on the order
    # the table's rows happen to be stored in (a suite rebuilt alone gives the rows a full build gives)
    keys = GROUP + ["judge_rater_id", "system_id", "pattern_key", "judge_score"]
    frame = table.select(keys).to_pandas()
    codes_of = {c: pd.factorize(frame[c], sort=True, use_na_sentinel=True)[0] for c in frame.columns}
    for c, v in codes_of.items():  # NULL last, except the humans' rows (judge NULL) first
        v[v < 0] = -1 if c == "judge_rater_id" else v.max() + 1
    order = np.lexsort([codes_of[c] for c in reversed(keys)])
    table = table.take(order)
    group_codes = np.stack([codes_of[c][order] for c in GROUP], axis=1)
    g = np.concatenate([[0], np.cumsum(np.any(group_codes[1:] != group_codes[:-1], axis=1))])
    system_codes = codes_of["system_id"][order]
    lists = table.column("human_scores").combine_chunks()
    offsets = lists.offsets.to_numpy().astype(np.int64)
    struct = lists.flatten()
    names = pc.dictionary_encode(struct.field("rater_id"))
    codes = names.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    rater_names = names.dictionary.to_pylist()
    values = struct.field("score_value").to_numpy(zero_copy_only=False).astype(float)
    judge_codes = codes_of["judge_rater_id"][order]
    system = np.array(table.column("system_id").to_pylist(), dtype=object)

    def num(name: str) -> np.ndarray:
        return table.column(name).to_numpy(zero_copy_only=False).astype(float)

    units, judge_score, n_excluded = num("n_units"), num("judge_score"), num("n_ratings_excluded")
    min_score, max_score = num("min_score"), num("max_score")

    def part(a: int, b: int) -> Patterns:
        lo, hi = offsets[a], offsets[b]
        return Patterns(system[a:b], units[a:b], offsets[a:b + 1] - lo, codes[lo:hi], values[lo:hi],
                        judge_score[a:b], system_codes[a:b], n_excluded[a:b], min_score[a:b], max_score[a:b],
                        rater_names)

    n = table.num_rows
    group_starts = np.flatnonzero(np.concatenate([[True], g[1:] != g[:-1]]))
    run_starts = np.flatnonzero(np.concatenate([[True], (g[1:] != g[:-1]) | (judge_codes[1:] != judge_codes[:-1])]))
    firsts = table.take(run_starts).select(GROUP + ["judge_rater_id", "judge_rater_kind"]).to_pylist()
    run_ends = np.append(run_starts[1:], n)
    group_of_run = np.searchsorted(group_starts, run_starts, side="right") - 1
    group = None
    for k, (a, b) in enumerate(zip(run_starts, run_ends)):
        if group is None or group_of_run[k] != group_of_run[k - 1]:
            if group is not None:
                yield group
            group = Group({c: firsts[k][c] for c in GROUP}, None)
        judge = firsts[k]["judge_rater_id"]
        if judge is None:
            group.humans = part(a, b)
        else:
            group.judges[judge] = part(a, b)
            group.judge_kinds[judge] = firsts[k]["judge_rater_kind"]
    if group is not None:
        yield group
