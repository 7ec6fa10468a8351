"""Inter-rater reliability and judge-vs-human meta-evaluation tables (the Python dbt models' logic).

reliability_table and coder_set_alpha_table take the long table of ``int_reliability_scores`` as a pandas DataFrame
(one row per suite x task x rubric version x criterion x response x rater; columns below). judge_human_table,
judge_diagnostics_table and system_rankings_table take its sufficient statistics instead, ``int_reliability_cells``
(score_cells: the same rows counted by equal values in DuckDB, so that millions of ratings never reach pandas).
Each returns one mart as a DataFrame. The statistics themselves live in :mod:`evalhouse.stats`; this module only
groups, pivots and names.

Input columns: suite, task, rubric_id, rubric_version, criterion, min_score, max_score, response_id, item_id,
system_id, is_reference_system, response_chars, rater_id, rater_kind, score_value (NULL = unusable), n_scores,
n_excluded, excluded_reason (and score_value_as_recorded, n_excluded_as_recorded for the judge-failure policies).

Conventions: a statistic that is undefined is NULL with a ``*_reason`` column saying why (never 0); "human mean" is
the mean of the usable human scores of a response (every human rater, self included, as in Chhun et al. 2024's
"human" column); system means are taken over the responses both sides scored.

reliability_table and coder_set_alpha_table (fct_interrater_reliability, fct_coder_set_alpha) read no rating rows:
they compute from int_reliability_unit_patterns, the scores counted by unit pattern in SQL
(evalhouse.stats.reliability_patterns, statistics in evalhouse.stats.unit_patterns); given the long table instead
(a DataFrame: tests, benchmarks), they run that model's SQL on it first.
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from evalhouse.stats import agreement, reliability_patterns, unit_patterns
from evalhouse.stats.result import StatResult

GROUP = ["suite", "task", "rubric_id", "rubric_version", "criterion"]
JUDGE_KINDS = ("judge", "metric", "program")
# Judge-failure policies of the judge-human marts. excluded: failure codes and out-of-range values are left out and
# counted (score_value); as_recorded: the released values are used as they are (score_value_as_recorded), as the
# data's authors did (Chhun et al. 2024 correlate HANNA's judge columns with their -1 / 0 codes averaged in).
FAILURE_POLICIES = ("excluded", "as_recorded")


def with_direction(table: pd.DataFrame, criteria: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a ``direction`` column ('higher' / 'lower' is better, from int_rubric_criteria) right after
    ``criterion``, matched on suite x rubric_id x rubric_version x criterion; 'higher' where the rubric does not say
    (a criterion without a rubric row). Rows and their order are unchanged.

    Correlations with the human mean do not depend on it (both sides score the same scale), but a judge mean, a
    human mean or a bias does: on a lower-is-better criterion a positive bias means the judge finds more faults."""
    keys = ["suite", "rubric_id", "rubric_version", "criterion"]

    def key(row) -> tuple:
        return (str(row[0]), str(row[1]), None if pd.isna(row[2]) else int(row[2]), str(row[3]))

    lookup = {key(r): d for r, d in zip(criteria[keys].itertuples(index=False, name=None), criteria["direction"])}
    direction = [lookup.get(key(r)) or "higher" for r in table[keys].itertuples(index=False, name=None)]
    out = table.copy()
    out.insert(list(out.columns).index("criterion") + 1, "direction", pd.array(direction, dtype="string"))
    return out


def frame_from_relation(relation) -> pd.DataFrame:
    """A DuckDB relation (``dbt.ref(...)`` in a Python model) as pandas, through Arrow with text as categories:
    about 3x faster and 2.5x smaller than ``.df()`` on millions of rating rows."""
    table = relation.arrow()
    if hasattr(table, "read_all"):  # duckdb >= 1.4 returns a RecordBatchReader
        table = table.read_all()
    return table.to_pandas(strings_to_categorical=True)


# ------------------------------------------------------------------------------------------------------------------
# Sufficient statistics: int_reliability_cells
# ------------------------------------------------------------------------------------------------------------------

CELLS_COLUMNS = ["judge_failure_policy"] + GROUP + [
    "rater_id", "rater_kind", "system_id", "is_reference_system", "score_value", "human_mean", "n_human_raters",
    "response_chars", "n_responses", "n_excluded"]
_KEYS = ", ".join(GROUP)


def score_cells(scores):
    """int_reliability_cells: the rows of int_reliability_scores counted by equal values, under each judge-failure
    policy, as a DuckDB relation (computed by DuckDB; ``scores`` a relation, or a DataFrame put on an in-memory
    DuckDB). What judge_human_table, judge_diagnostics_table and system_rankings_table read instead of the rows.

    One row per judge_failure_policy x suite x task x rubric_id x rubric_version x criterion x rater_id x
    rater_kind x system_id x is_reference_system x score_value x human_mean x n_human_raters x response_chars
    (NULLs equal), with n_responses (rows = responses counted) and n_excluded (their rating rows not used, summed).
    Per policy (FAILURE_POLICIES): ``excluded`` reads score_value / n_excluded, ``as_recorded`` reads
    score_value_as_recorded / n_excluded_as_recorded (the same columns when those are absent); score_value is the
    rater's score (NULL: not usable); human_mean the mean of the response's usable human scores under the same
    policy (NULL: none), n_human_raters how many were averaged (0: none); response_chars the reply length, kept for
    judge / metric / program raters only (the diagnostics' length correlations; NULL for a human rater's row, so
    that human cells stay few); is_reference_system false when unknown.

    A response's human means and counts (both policies) are read from ``human_mean``, ``n_human_raters``,
    ``human_mean_as_recorded`` and ``n_human_raters_as_recorded`` when ``scores`` has all four (int_reliability_scores
    computes them per response, incrementally), else computed here as one window over its group x response. The
    rows are then counted once on both policies' values together and each policy's cells summed from those. Where
    scores take few values (a 0-2 rubric) a million responses become a few hundred cells; continuous values
    (HANNA's metrics) stay about one cell per row."""
    rel = _relation(scores)
    columns = set(rel.columns)
    recorded = "score_value_as_recorded" if "score_value_as_recorded" in columns else "score_value"
    n_recorded = "n_excluded_as_recorded" if "n_excluded_as_recorded" in columns else "n_excluded"
    keys = f"{_KEYS}, rater_id, rater_kind, system_id, is_reference_system"
    per_policy = " union all ".join(f"""
select '{policy}' as judge_failure_policy, {keys}, score_{policy} as score_value, human_mean_{policy} as human_mean,
       n_human_{policy} as n_human_raters, response_chars, sum(n_responses) as n_responses,
       cast(sum(n_excluded_{policy}) as bigint) as n_excluded
from both_policies
group by {keys}, score_{policy}, human_mean_{policy}, n_human_{policy}, response_chars"""
                             for policy in FAILURE_POLICIES)
    human = "case when rater_kind = 'human' then score_{} end"
    precomputed = ""
    if {"human_mean", "n_human_raters", "human_mean_as_recorded", "n_human_raters_as_recorded"} <= columns:
        precomputed = """,
           try_cast(human_mean as double) as human_mean_excluded, cast(n_human_raters as bigint) as n_human_excluded,
           try_cast(human_mean_as_recorded as double) as human_mean_as_recorded,
           cast(n_human_raters_as_recorded as bigint) as n_human_as_recorded"""
        with_human = """
    select * from typed"""
    else:
        with_human = f"""
    select typed.*,
           avg({human.format("excluded")}) over response as human_mean_excluded,
           count({human.format("excluded")}) over response as n_human_excluded,
           avg({human.format("as_recorded")}) over response as human_mean_as_recorded,
           count({human.format("as_recorded")}) over response as n_human_as_recorded
    from typed
    window response as (partition by {_KEYS}, response_id)"""
    return rel.query("reliability_scores", f"""
with typed as (
    select cast(suite as varchar) as suite, cast(task as varchar) as task, cast(rubric_id as varchar) as rubric_id,
           cast(rubric_version as integer) as rubric_version, cast(criterion as varchar) as criterion,
           response_id, cast(system_id as varchar) as system_id,
           coalesce(cast(is_reference_system as boolean), false) as is_reference_system,
           case when rater_kind <> 'human' then try_cast(response_chars as bigint) end as response_chars,
           cast(rater_id as varchar) as rater_id, cast(rater_kind as varchar) as rater_kind,
           try_cast(score_value as double) as score_excluded, try_cast({recorded} as double) as score_as_recorded,
           cast(n_excluded as bigint) as n_excluded_excluded,
           cast({n_recorded} as bigint) as n_excluded_as_recorded{precomputed}
    from reliability_scores
),
with_human as ({with_human}
),
-- one pass over the rows for both policies (most rows read alike under both), then each policy's cells
both_policies as (
    select {keys}, score_excluded, human_mean_excluded, n_human_excluded, score_as_recorded,
           human_mean_as_recorded, n_human_as_recorded, response_chars, count(*) as n_responses,
           sum(n_excluded_excluded) as n_excluded_excluded, sum(n_excluded_as_recorded) as n_excluded_as_recorded
    from with_human
    group by {keys}, score_excluded, human_mean_excluded, n_human_excluded, score_as_recorded,
             human_mean_as_recorded, n_human_as_recorded, response_chars
)
{per_policy}""")


def _relation(data):
    """``data`` as a DuckDB relation: a relation as it is; a DataFrame on a new in-memory DuckDB (the relation keeps
    its connection open)."""
    if not isinstance(data, pd.DataFrame):
        return data
    import duckdb

    return duckdb.connect().from_df(data)


def _query(cells, sql: str):
    """``sql`` over the table ``reliability_cells`` (``cells``: a relation or DataFrame of score_cells' rows), as an
    Arrow table."""
    table = _relation(cells).query("reliability_cells", sql).arrow()
    return table.read_all() if hasattr(table, "read_all") else table


def _flatten(table, column: str = "cells") -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """A list-of-structs column flattened: the row each element belongs to (non-decreasing), and each struct field
    as numpy: booleans with NULL false, numbers as float with NULL as NaN, text as the rank of its value among the
    field's distinct values sorted (NULL last), those values under ``<field>_values``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    lists = table.column(column).combine_chunks() if table.num_rows else \
        pa.array([], table.schema.field(column).type)
    parent = pc.list_parent_indices(lists).to_numpy(zero_copy_only=False).astype(np.int64)
    values = pc.list_flatten(lists)
    fields = {}
    for i, field in enumerate(values.type):
        arr = values.field(i)
        if pa.types.is_string(field.type) or pa.types.is_large_string(field.type):
            encoded = pc.dictionary_encode(arr, null_encoding="encode")
            texts = encoded.dictionary.to_pylist()
            order = sorted(range(len(texts)), key=lambda k: (texts[k] is None, texts[k] or ""))
            rank = np.empty(len(texts), dtype=np.int64)
            rank[order] = np.arange(len(texts), dtype=np.int64)
            fields[field.name] = rank[encoded.indices.to_numpy(zero_copy_only=False)] if texts else \
                np.zeros(len(arr), dtype=np.int64)
            fields[f"{field.name}_values"] = [texts[k] for k in order]
        elif pa.types.is_boolean(field.type):
            fields[field.name] = arr.fill_null(False).to_numpy(zero_copy_only=False).astype(bool)
        else:
            fields[field.name] = arr.cast(pa.float64()).fill_null(float("nan")).to_numpy(zero_copy_only=False)
    return parent, fields


def _group_sums(key: np.ndarray, w: np.ndarray, *values: np.ndarray,
                in_value_order: bool = False) -> tuple[np.ndarray, np.ndarray, list]:
    """Per distinct key, ascending: the key, the sum of the weights w and, for each array of ``values``, the sum of
    w x value. The cells are added in the order of (key, values..., w) (when they already come in the order of
    (values..., w), ``in_value_order``, a stable sort on the key keeps it), so that a sum depends on the cells
    only, not on the order DuckDB listed them in: equal system means stay equal from one build to the next."""
    order = np.argsort(key, kind="stable") if in_value_order else np.lexsort((w,) + values[::-1] + (key,))
    k = key[order]
    if not k.size:
        return k, np.zeros(0), [np.zeros(0) for _ in values]
    starts = np.flatnonzero(np.concatenate([[True], k[1:] != k[:-1]]))
    weights = w[order].astype(float)
    return k[starts], np.add.reduceat(weights, starts), [np.add.reduceat(weights * v[order], starts) for v in values]


def _rows(table, columns: list[str]) -> list[tuple]:
    """``table``'s ``columns`` as one tuple per row (None for NULL)."""
    return list(zip(*[table.column(c).to_pylist() for c in columns])) if table.num_rows else []


def _slot_cells(parent: np.ndarray, slots: list[tuple[int, np.ndarray | None]]) -> tuple[np.ndarray, np.ndarray]:
    """The flattened cells of each slot: ``slots`` = [(row j of the list query or -1 for none, a mask over the
    cells or None)]; returns the cells' positions and each one's slot, in slot order and, inside a slot, in list
    order (a row's cells are contiguous: parent is non-decreasing)."""
    bounds = np.searchsorted(parent, np.arange(int(parent.max()) + 2 if parent.size else 1))
    parts = [np.arange(bounds[j], bounds[j + 1]) if j >= 0 else np.array([], dtype=np.int64) for j, _ in slots]
    parts = [at if mask is None else at[mask[at]] for at, (_, mask) in zip(parts, slots)]
    if not parts:
        return np.array([], dtype=np.int64), np.array([], dtype=np.int64)
    return (np.concatenate(parts).astype(np.int64),
            np.repeat(np.arange(len(parts), dtype=np.int64), [at.size for at in parts]))


def _typed(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """A DataFrame with stable nullable dtypes (so an all-NULL column keeps its SQL type and NaN becomes NULL)."""
    df = pd.DataFrame(rows, columns=columns)
    for col in columns:
        dtype = _dtype(col)
        df[col] = df[col].astype(object).where(df[col].notna(), None).astype(dtype) if dtype != "Float64" else \
            pd.to_numeric(df[col].astype(object).where(df[col].notna(), None), errors="raise").astype("Float64")
    return df


_STRING_COLS = {"suite", "task", "rubric_id", "criterion", "rater_id", "rater_kind", "comparison", "level",
                "ranker", "ranker_kind", "system_id", "coder_set", "judge_rater_id", "judge_rater_kind",
                "judge_failure_policy"}
_INT_COLS = {"scale_min", "scale_max", "n_levels", "n_raters", "n_units", "n_units_rated",
             "n_units_pairable", "n_ratings_used", "n_ratings_excluded", "icc_k", "icc_n_units", "n_rater_pairs", "n",
             "n_systems", "n_items", "n_judge_scores_excluded", "n_items_with_text", "n_responses", "n_coders"}
_BOOL_COLS = {"is_binary", "reference_system_included", "suite_has_reference_system", "is_reference_system",
              "higher_is_better"}


def _dtype(col: str) -> str:
    if col in _STRING_COLS or col.endswith("_reason"):
        return "string"
    if col == "rubric_version":
        return "Int32"  # INTEGER, as in every mart
    if col in _INT_COLS:
        return "Int64"
    if col in _BOOL_COLS:
        return "boolean"
    return "Float64"


def _prepare(scores: pd.DataFrame) -> pd.DataFrame:
    """Compact keys once: response ids become integer codes (they never reach a mart), the score a float."""
    out = scores.copy()
    for col in out.columns:
        if isinstance(out[col].dtype, pd.CategoricalDtype):
            codes = out[col].cat.codes.to_numpy()
            used = np.bincount(codes[codes >= 0], minlength=len(out[col].cat.categories))
            if not used.all():  # remove_unused_categories costs ~35 ms a column even when none is unused
                out[col] = out[col].cat.remove_unused_categories()
    out["response_id"] = pd.factorize(out["response_id"])[0]
    out["score_value"] = pd.to_numeric(out["score_value"], errors="coerce").astype(float)
    out["is_reference_system"] = out["is_reference_system"].astype("boolean").fillna(False).astype(bool)
    out["response_chars"] = pd.to_numeric(out["response_chars"], errors="coerce").astype(float)
    return out


def _groups(scores: pd.DataFrame) -> Iterable[tuple[dict, pd.DataFrame]]:
    scores = _prepare(scores)
    for key, frame in scores.groupby(GROUP, dropna=False, sort=True):
        yield dict(zip(GROUP, key)), frame


def _val(r: StatResult) -> float | None:
    return None if r.value is None else float(r.value)


def _clean(v):
    if v is None:
        return None
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _scale(frame: pd.DataFrame) -> list[float] | None:
    lo, hi = frame["min_score"].min(), frame["max_score"].max()
    if pd.isna(lo) or pd.isna(hi):
        return None
    return [float(v) for v in range(int(lo), int(hi) + 1)]


def _matrix(frame: pd.DataFrame, index: str = "response_id") -> pd.DataFrame:
    """units x raters matrix of usable scores (NaN = missing)."""
    used = frame[frame["score_value"].notna()]
    if used.empty:
        return pd.DataFrame()
    return used.groupby([index, "rater_id"], sort=False)["score_value"].mean().unstack("rater_id")


# ------------------------------------------------------------------------------------------------------------------
# 1. Inter-rater reliability per suite x task x rubric version x criterion (human raters)
# ------------------------------------------------------------------------------------------------------------------

def _pair_cells(h: reliability_patterns.Patterns, keep: np.ndarray) -> dict[tuple[int, int], tuple]:
    """Each rater pair's contingency counts over the rows where ``keep``: {(code_a, code_b): (x, y, units)}, a before b
    in rater_id order (a pattern lists its raters in that order), x = a's score, y = b's."""
    cells: dict[tuple[int, int], list] = {}
    sizes = h.sizes
    for m in np.unique(sizes[keep & (sizes >= 2)]):
        rows = np.flatnonzero(keep & (sizes == m))
        idx = h.offsets[rows][:, None] + np.arange(m)[None, :]
        codes, values, units = h.raters[idx], h.values[idx], h.units[rows]
        for i in range(m):
            for j in range(i + 1, m):
                pair = np.stack([codes[:, i], codes[:, j]], axis=1)
                for (a, b), where in _split(pair):
                    cell = cells.setdefault((a, b), [[], [], []])
                    cell[0].append(values[where, i])
                    cell[1].append(values[where, j])
                    cell[2].append(units[where])
    return {k: tuple(np.concatenate(part) for part in v) for k, v in cells.items()}


def _split(pairs: np.ndarray):
    """(pair, row indices) for each distinct row of an n x 2 integer array."""
    distinct, inverse = np.unique(pairs, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    for k, pair in enumerate(distinct):
        yield (int(pair[0]), int(pair[1])), np.flatnonzero(inverse == k)


def _mean_pairwise_spearman(h: reliability_patterns.Patterns, raters: list[int]) -> StatResult:
    """agreement.mean_pairwise_spearman from the pair contingency counts: every pair of ``raters`` (codes, in
    rater_id order), Spearman's rho on the units both scored (unit_patterns.spearman_from_counts)."""
    cells = _pair_cells(h, h.sizes > 0)
    empty = (np.empty(0), np.empty(0), np.empty(0))
    return agreement.mean_of_pair_rhos(unit_patterns.spearman_from_counts(*cells.get((a, b), empty))
                                       for i, a in enumerate(raters) for b in raters[i + 1:])


def _rater_codes(h: reliability_patterns.Patterns) -> list[int]:
    """The codes of the raters with a usable score among these rows, in rater_id order."""
    return sorted({int(c) for c in np.unique(h.raters)}, key=lambda c: h.rater_names[c])


def _patterns_of(scores, patterns):
    if patterns is not None:
        return patterns, None, None
    return reliability_patterns.pattern_relation(scores)


def reliability_table(scores=None, *, patterns=None) -> pd.DataFrame:
    """fct_interrater_reliability: the human raters' reliability per suite x task x rubric version x criterion.

    From int_reliability_unit_patterns (``patterns``, a DuckDB relation: the mart), or from int_reliability_scores
    rows (``scores``, a DataFrame or relation: the model's SQL is run on them first). Every statistic comes from
    the unit pattern counts (evalhouse.stats.unit_patterns: the agreement functions' definitions, NULL rules and
    reasons on aggregated input); the rating rows are never read into Python. Raters are taken in rater_id order
    (the pairs of mean_pairwise_spearman, and the reason of the first undefined pair)."""
    relation, _typed_scores, _con = _patterns_of(scores, patterns)
    rows = []
    for group in reliability_patterns.read_groups(relation, judges=False):
        h = group.humans
        lo = np.nanmin(h.min_score) if np.any(~np.isnan(h.min_score)) else None
        hi = np.nanmax(h.max_score) if np.any(~np.isnan(h.max_score)) else None
        scale = None if lo is None or hi is None else [float(v) for v in range(int(lo), int(hi) + 1)]
        raters = _rater_codes(h)
        pats = h.human()
        any_value = pats.values.size > 0
        sizes = pats.sizes
        row = dict(group.key)
        row.update(
            scale_min=None if lo is None else int(lo), scale_max=None if hi is None else int(hi),
            n_levels=len(scale) if scale else None,
            n_raters=len(raters), n_units=int(h.units.sum()),
            n_units_rated=int(pats.units.sum()), n_units_pairable=int(pats.units[sizes >= 2].sum()),
            n_ratings_used=int(np.sum(h.sizes * h.units)), n_ratings_excluded=int(np.nansum(h.n_excluded)),
        )
        none = StatResult(None, 0, "no usable ratings")
        alphas = unit_patterns.krippendorff_alphas(pats, len(raters)) if any_value else {}
        for level in ("nominal", "ordinal", "interval"):
            r = alphas.get(level, none)
            row[f"alpha_{level}"] = _val(r)
            row[f"alpha_{level}_reason"] = r.reason
        icc = unit_patterns.icc1(pats, len(raters)) if any_value else None
        row["icc_1_1"] = _val(icc.single) if icc else None
        row["icc_1_k"] = _val(icc.average) if icc else None
        row["icc_k"] = icc.k if icc else 0
        row["icc_n_units"] = icc.single.n if icc else 0
        row["icc_1_1_reason"] = icc.single.reason if icc else "no usable ratings"
        row["icc_1_k_reason"] = icc.average.reason if icc else "no usable ratings"
        sp = _mean_pairwise_spearman(h, raters) if any_value else none
        row["mean_pairwise_spearman"] = _val(sp)
        row["n_rater_pairs"] = sp.n
        row["mean_pairwise_spearman_reason"] = sp.reason
        pa = unit_patterns.percent_agreement(pats) if any_value else none
        row["exact_agreement"] = _val(pa)
        row["exact_agreement_reason"] = pa.reason
        row["all_raters_agree_share"] = unit_patterns.all_agree_share(pats) if any_value else None
        whole = scale is not None and any_value and bool(np.all(pats.values == np.round(pats.values)))
        labels = scale if whole else None
        fk = unit_patterns.fleiss_kappa(pats, labels) if any_value else none
        row["fleiss_kappa"] = _val(fk)
        row["fleiss_kappa_reason"] = fk.reason
        ac = unit_patterns.gwet_ac1(pats, labels) if any_value else none
        row["gwet_ac1"] = _val(ac)
        row["gwet_ac1_reason"] = ac.reason
        row["is_binary"] = bool(scale is not None and len(scale) == 2)
        rows.append(row)
    return _typed(rows, RELIABILITY_COLUMNS)


RELIABILITY_COLUMNS = GROUP + [
    "scale_min", "scale_max", "n_levels", "is_binary", "n_raters", "n_units", "n_units_rated", "n_units_pairable",
    "n_ratings_used", "n_ratings_excluded",
    "alpha_nominal", "alpha_nominal_reason", "alpha_ordinal", "alpha_ordinal_reason",
    "alpha_interval", "alpha_interval_reason",
    "icc_1_1", "icc_1_1_reason", "icc_1_k", "icc_1_k_reason", "icc_k", "icc_n_units",
    "mean_pairwise_spearman", "n_rater_pairs", "mean_pairwise_spearman_reason",
    "exact_agreement", "exact_agreement_reason", "all_raters_agree_share",
    "fleiss_kappa", "fleiss_kappa_reason", "gwet_ac1", "gwet_ac1_reason",
]


# ------------------------------------------------------------------------------------------------------------------
# 2. Judge (and human position) vs the human mean, item level and system level
# ------------------------------------------------------------------------------------------------------------------

def _human_mean(frame: pd.DataFrame) -> pd.DataFrame:
    h = frame[(frame["rater_kind"] == "human") & frame["score_value"].notna()]
    by_response = h.groupby("response_id")["score_value"]  # (named aggregation: 5x slower, same values)
    return pd.DataFrame({"human_mean": by_response.mean(), "n_human": by_response.size()})


def _response_info(frame: pd.DataFrame) -> pd.DataFrame:
    return frame.drop_duplicates("response_id").set_index("response_id")[
        ["item_id", "system_id", "is_reference_system", "response_chars"]]


def _three_many(samples: list[tuple[np.ndarray, np.ndarray]]) -> list[dict]:
    """Kendall tau-b, Spearman and Pearson of every (x, y) sample (agreement.correlations_many: all samples in a few
    numpy passes, the values of kendall_tau_b / spearman_rho / pearson_r)."""
    res = agreement.correlations_many(samples)
    out = []
    for tau, rho, r in zip(res["kendall_tau_b"], res["spearman"], res["pearson"]):
        out.append({"n": tau.n, "kendall_tau_b": _val(tau), "spearman_rho": _val(rho), "pearson_r": _val(r),
                    "reason": tau.reason or rho.reason or r.reason})
    return out


def _significant(a: np.ndarray, digits: int = 12) -> np.ndarray:
    return np.array([float(f"{v:.{digits}g}") for v in a], dtype=float)


def judge_human_table(cells) -> pd.DataFrame:
    """fct_judge_human_agreement (without direction): each rater against the human mean, per judge-failure policy x
    group x rater x level x reference_system_included, on the responses both scored.

    ``cells``: score_cells' rows (int_reliability_cells: a DuckDB relation or a DataFrame). Item level: the
    correlations of the (score, human mean) cells weighted by their responses (agreement.correlations_from_cells:
    the values of kendall_tau_b / spearman_rho / pearson_r on the responses). System level: per system the mean
    score and mean human mean of those responses (_group_sums / their count), rounded to 12 significant digits as
    before, then agreement.correlations_many. The rows of reference_system_included = false leave the reference
    system's responses out; they exist only when the group has one."""
    keys = ["judge_failure_policy"] + GROUP
    raters = _query(cells, f"""
select judge_failure_policy, {_KEYS}, rater_id, rater_kind, bool_or(is_reference_system) as any_ref
from reliability_cells
group by judge_failure_policy, {_KEYS}, rater_id, rater_kind""")
    pairs = _query(cells, f"""
select judge_failure_policy, {_KEYS}, rater_id,
       list(struct_pack(x := score_value, y := human_mean, w := n_responses, is_ref := is_reference_system,
                        system_id)) as cells
from reliability_cells
where score_value is not null and human_mean is not null
group by judge_failure_policy, {_KEYS}, rater_id""")
    parent, c = _flatten(pairs)
    order = np.lexsort((c["w"], c["y"], c["x"], parent))  # each slot's cells sorted on (x, y, w): once, here
    parent = parent[order]
    x, y, w, is_ref, system = (c[f][order] for f in ("x", "y", "w", "is_ref", "system_id"))
    # system level: per sample x system, over every cell and over the cells not of the reference system
    n_codes = max(len(c["system_id_values"]), 1)
    every = _group_sums(parent * n_codes + system, w, x, y, in_value_order=True)
    no_ref = _group_sums((parent * n_codes + system)[~is_ref], w[~is_ref], x[~is_ref], y[~is_ref],
                         in_value_order=True)
    sample_of = {key: j for j, key in enumerate(_rows(pairs, keys + ["rater_id"]))}
    # a sample whose cells are those of an earlier one (most raters read alike under both judge-failure policies)
    # takes that one's correlations: each distinct set of cells is computed once
    bounds = np.searchsorted(parent, np.arange(len(sample_of) + 1))
    first: dict[bytes, int] = {}
    same_as = [first.setdefault(b"".join(a[bounds[j]:bounds[j + 1]].tobytes() for a in (x, y, w, is_ref, system)), j)
               for j in range(len(sample_of))] + [-1]  # same_as[-1]: no cells
    groups: dict[tuple, list[tuple]] = {}
    for *key, rater_id, rater_kind, any_ref in _rows(raters, keys + ["rater_id", "rater_kind", "any_ref"]):
        groups.setdefault(tuple(key), []).append((rater_kind, rater_id, bool(any_ref)))
    rows, slot_of, slots, system_samples = [], {}, [], []
    for key in sorted(groups, key=_policy_group_order):
        members = sorted(groups[key], key=lambda m: _null_last(m[:2]))
        if not any(kind == "human" for kind, _, _ in members):
            continue
        has_ref = any(any_ref for *_, any_ref in members)
        for rater_kind, rater_id, _ in members:
            j = same_as[sample_of.get(key + (rater_id,), -1)]
            for include_ref in ([True, False] if has_ref else [True]):
                if (j, include_ref) not in slot_of:
                    slot_of[(j, include_ref)] = len(slots)
                    slots.append((j, None if include_ref else ~is_ref))
                    system_keys, counts, (sum_x, sum_y) = every if include_ref else no_ref
                    lo, hi = np.searchsorted(system_keys, [j * n_codes, (j + 1) * n_codes]) if j >= 0 else (0, 0)
                    system_samples.append((_significant(sum_x[lo:hi] / counts[lo:hi]),
                                           _significant(sum_y[lo:hi] / counts[lo:hi])))
                for level in ("item", "system"):
                    row = dict(zip(keys, key))
                    row.update(rater_id=rater_id, rater_kind=rater_kind,
                               comparison="human_ceiling" if rater_kind == "human" else rater_kind, level=level,
                               reference_system_included=include_ref, suite_has_reference_system=has_ref)
                    rows.append((row, slot_of[(j, include_ref)]))
    idx, slot = _slot_cells(parent, slots)
    item = agreement.correlations_from_cells(slot, x[idx], y[idx], w[idx].astype(np.int64), len(slots))
    system = _three_many(system_samples)
    for row, t in rows:
        row["n_systems"] = len(system_samples[t][0])
        if row["level"] == "item":
            tau, rho, r = item["kendall_tau_b"][t], item["spearman"][t], item["pearson"][t]
            row.update(n=tau.n, kendall_tau_b=_val(tau), spearman_rho=_val(rho), pearson_r=_val(r),
                       correlation_reason=tau.reason or rho.reason or r.reason)
        else:
            res = system[t]
            row.update(n=res["n"], kendall_tau_b=res["kendall_tau_b"], spearman_rho=res["spearman_rho"],
                       pearson_r=res["pearson_r"], correlation_reason=res["reason"])
    return _typed([row for row, _ in rows], JUDGE_HUMAN_COLUMNS)


def _null_last(values: tuple) -> tuple:
    """Sort key of a tuple of values: NULLs last (as SQL's nulls last), each position compared within its type."""
    return tuple((v is None, v if v is not None else 0) for v in values)


def _policy_group_order(key: tuple) -> tuple:
    """Sort key of a (judge_failure_policy, *GROUP) tuple: the policies in FAILURE_POLICIES' order, then the group
    (NULLs last)."""
    return (FAILURE_POLICIES.index(key[0]),) + _null_last(key[1:])


JUDGE_HUMAN_COLUMNS = ["suite", "judge_failure_policy"] + GROUP[1:] + [
    "rater_id", "rater_kind", "comparison", "level", "reference_system_included", "suite_has_reference_system",
    "n", "n_systems", "kendall_tau_b", "spearman_rho", "pearson_r", "correlation_reason",
]


# ------------------------------------------------------------------------------------------------------------------
# 3. Judge diagnostics (AlpacaEval-style)
# ------------------------------------------------------------------------------------------------------------------

def _round_half_up(a: np.ndarray) -> np.ndarray:
    return np.floor(a + 0.5)


def judge_diagnostics_table(cells) -> pd.DataFrame:
    """fct_judge_diagnostics (without direction): AlpacaEval-style diagnostics of every judge / metric / program
    rater, per judge-failure policy x group x rater, on the responses the rater and at least one human scored.

    ``cells``: score_cells' rows (int_reliability_cells: a DuckDB relation or a DataFrame). n_judge_scores_excluded
    sums the rater's n_excluded; means, sample variances (two-pass, n - 1) and the same-level share are sums over the
    (score, human mean) cells weighted by their responses; the length correlations Spearman's rho of the (score,
    length) and (human mean, length) cells (agreement.correlations_from_cells)."""
    raters = _query(cells, f"""
select judge_failure_policy, {_KEYS}, rater_id, rater_kind, cast(sum(n_excluded) as bigint) as n_excluded
from reliability_cells
group by judge_failure_policy, {_KEYS}, rater_id, rater_kind""")
    pairs = _query(cells, f"""
select judge_failure_policy, {_KEYS}, rater_id,
       list(struct_pack(x := score_value, y := human_mean, chars := response_chars, w := n_responses)) as cells
from reliability_cells
where score_value is not null and human_mean is not null and rater_kind in {JUDGE_KINDS}
group by judge_failure_policy, {_KEYS}, rater_id""")
    parent, c = _flatten(pairs)
    # the cells in one order whatever order DuckDB listed them in, so that the sums below are the same every build
    order = np.lexsort((c["w"], c["chars"], c["y"], c["x"], parent))
    parent, c = parent[order], {name: v[order] for name, v in c.items()}
    sample_of = {key: j for j, key in enumerate(_rows(pairs, ["judge_failure_policy"] + GROUP + ["rater_id"]))}
    judges: dict[tuple, dict[str, str]] = {}  # group -> judge -> its kind
    excluded: dict[tuple, int] = {}  # group + (rater,) -> its rows not used, whatever its kind
    for *key, rater_id, rater_kind, n_excluded in _rows(raters, ["judge_failure_policy"] + GROUP + [
            "rater_id", "rater_kind", "n_excluded"]):
        key = tuple(key)
        excluded[key + (rater_id,)] = excluded.get(key + (rater_id,), 0) + int(n_excluded or 0)
        if rater_kind in JUDGE_KINDS:
            kinds = judges.setdefault(key, {})
            kinds[rater_id] = min(kinds.get(rater_id, rater_kind), rater_kind)
    rows, slots = [], []
    for key in sorted(judges, key=_policy_group_order):
        for judge in sorted(judges[key]):
            slots.append((sample_of.get(key + (judge,), -1), None))
            row = dict(zip(["judge_failure_policy"] + GROUP, key))
            row.update(rater_id=judge, rater_kind=judges[key][judge],
                       n_judge_scores_excluded=excluded[key + (judge,)])
            rows.append(row)
    idx, g = _slot_cells(parent, slots)
    j, h, chars, w = (c["x"][idx], c["y"][idx], c["chars"][idx], c["w"][idx]) if idx.size else \
        (np.array([]),) * 4
    m = len(slots)

    def total(values: np.ndarray, keep: np.ndarray | None = None) -> np.ndarray:
        """Per slot: the sum of w x values (over the cells in keep)."""
        if keep is None:
            return np.bincount(g, weights=w * values, minlength=m)
        return np.bincount(g[keep], weights=(w * values)[keep], minlength=m)

    n = total(np.ones_like(w)).round().astype(np.int64)
    with np.errstate(divide="ignore", invalid="ignore"):
        judge_mean, human_mean, mean_bias = total(j) / n, total(h) / n, total(j - h) / n
        judge_var = total((j - judge_mean[g]) ** 2) / (n - 1)
        human_var = total((h - human_mean[g]) ** 2) / (n - 1)
        same = total((_round_half_up(j) == _round_half_up(h)).astype(float)) / n
    text = ~np.isnan(chars)
    n_text = total(np.ones_like(w), text).round().astype(np.int64)
    # Spearman's rho of sample 2t = (judge score, length) and 2t + 1 = (human mean, length) of slot t
    gt, wt = g[text], w[text].astype(np.int64)
    rho = agreement.correlations_from_cells(
        np.concatenate([2 * gt, 2 * gt + 1]), np.concatenate([j[text], h[text]]),
        np.concatenate([chars[text], chars[text]]), np.concatenate([wt, wt]), 2 * m, methods=("spearman",))["spearman"]
    for t, row in enumerate(rows):
        k = int(n[t])
        row["n_items"] = k
        if k == 0:
            row.update(judge_mean=None, human_mean=None, mean_bias=None, judge_variance=None,
                       human_mean_variance=None, same_level_share=None,
                       diagnostics_reason="no response scored by both the judge and a human")
        else:
            row.update(judge_mean=float(judge_mean[t]), human_mean=float(human_mean[t]),
                       mean_bias=float(mean_bias[t]), judge_variance=float(judge_var[t]) if k >= 2 else None,
                       human_mean_variance=float(human_var[t]) if k >= 2 else None,
                       same_level_share=float(same[t]),
                       diagnostics_reason=None if k >= 2 else "one item only: variance undefined")
        row["n_items_with_text"] = int(n_text[t])
        if row["n_items_with_text"]:
            lj, lh = rho[2 * t], rho[2 * t + 1]
            row.update(judge_length_spearman=_val(lj), human_length_spearman=_val(lh),
                       length_reason=lj.reason or lh.reason)
        else:
            row.update(judge_length_spearman=None, human_length_spearman=None,
                       length_reason="no response texts in this suite")
    return _typed(rows, DIAGNOSTICS_COLUMNS)


DIAGNOSTICS_COLUMNS = ["suite", "judge_failure_policy"] + GROUP[1:] + [
    "rater_id", "rater_kind", "n_items", "n_judge_scores_excluded", "judge_mean", "human_mean", "mean_bias",
    "judge_variance", "human_mean_variance", "same_level_share", "diagnostics_reason", "n_items_with_text",
    "judge_length_spearman", "human_length_spearman", "length_reason",
]


# ------------------------------------------------------------------------------------------------------------------
# 4. System rankings and rank agreement, item-level and rank-based alpha with / without each judge
# ------------------------------------------------------------------------------------------------------------------

def _direction(directions: pd.DataFrame | None, key: dict) -> bool:
    if directions is None or directions.empty:
        return True
    hit = directions[(directions["suite"] == key["suite"]) & (directions["rubric_id"] == key["rubric_id"])
                     & (directions["criterion"] == key["criterion"])]
    if "rubric_version" in hit:
        hit = hit[hit["rubric_version"] == key["rubric_version"]]
    return True if hit.empty else bool(hit["higher_is_better"].iloc[0])


def _system_means(frame: pd.DataFrame, human: pd.DataFrame | None = None) -> pd.DataFrame:
    """systems x rankers: each rater's mean over the responses it scored, plus the human mean's system mean.
    ``human``: _human_mean(frame) joined with each response's system_id, when the caller has it already.

    Means are rounded to 12 significant digits: a float sum depends on the order the rows arrive in, so two systems
    with equal means (e.g. 694/288 each) would otherwise tie in one build and not in the next."""
    used = frame[frame["score_value"].notna()]
    per_rater = used.groupby(["system_id", "rater_id"])["score_value"].mean().unstack()
    hm = _human_by_system(frame) if human is None else human
    per_rater["human_mean"] = hm.groupby("system_id")["human_mean"].mean()
    return per_rater.apply(lambda col: pd.Series(_significant(col.to_numpy(float)), index=col.index))


def _human_by_system(frame: pd.DataFrame) -> pd.DataFrame:
    return _human_mean(frame).join(_response_info(frame)["system_id"])


def system_rankings_table(cells, directions: pd.DataFrame | None = None) -> pd.DataFrame:
    """fct_system_rankings (mean_score as DOUBLE): systems ranked per group by each rater's mean and by the mean of
    the responses' human means; one row per group x ranker (every rater with a usable score in the group, and
    human_mean) x system (the systems with a usable score), under the judge-failure policy ``excluded``.

    ``cells``: score_cells' rows (int_reliability_cells: a DuckDB relation or a DataFrame). A rater's mean is the
    weighted mean of its score cells; the human_mean ranker's, the mean over responses of their human mean (a
    response with k usable human scores is in k human cells: their responses / k count it once). Sums by
    _group_sums, means rounded to 12 significant digits as before, then ranked by agreement.average_ranks in the
    criterion's direction (``directions``, as _direction reads it); a ranker without a score of a system gets
    n_responses 0 and NULL mean and rank."""
    table = _query(cells, f"""
with used as (
    select * from reliability_cells where judge_failure_policy = 'excluded' and score_value is not null
),
human as (
    select {_KEYS}, system_id, bool_or(is_reference_system) as is_reference_system, human_mean,
           sum(n_responses) // n_human_raters as n
    from used
    where rater_kind = 'human'
    group by {_KEYS}, system_id, human_mean, n_human_raters
)
select {_KEYS}, rater_id as ranker, min(rater_kind) as ranker_kind,
       list(struct_pack(system_id, is_ref := is_reference_system, x := score_value, w := n_responses)) as cells
from used
group by {_KEYS}, rater_id
union all
select {_KEYS}, 'human_mean' as ranker, 'human_mean' as ranker_kind,
       list(struct_pack(system_id, is_ref := is_reference_system, x := human_mean, w := n)) as cells
from human
group by {_KEYS}""")
    parent, c = _flatten(table)
    names = c.get("system_id_values", [])
    n_codes = max(len(names), 1)
    system_keys, counts, (sums, refs) = _group_sums(parent * n_codes + c["system_id"], c["w"], c["x"],
                                                    c["is_ref"].astype(float))
    groups: dict[tuple, list[tuple]] = {}  # group -> [(ranker, kind, row of the list query)]
    for j, (*key, ranker, kind) in enumerate(_rows(table, GROUP + ["ranker", "ranker_kind"])):
        groups.setdefault(tuple(key), []).append((ranker, kind, j))
    rows = []
    for key in sorted(groups, key=_null_last):
        higher = _direction(directions, dict(zip(GROUP, key)))
        # the human_mean ranker even without a human score (then no mean, no rank), last
        entries = sorted((e for e in groups[key] if e[1] != "human_mean"), key=lambda e: e[0])
        human = [e for e in groups[key] if e[1] == "human_mean"]
        entries.append(human[0] if human else ("human_mean", "human_mean", -1))
        per_ranker, is_ref = [], {}
        for _, _, j in entries:
            lo, hi = np.searchsorted(system_keys, [j * n_codes, (j + 1) * n_codes]) if j >= 0 else (0, 0)
            codes = system_keys[lo:hi] - j * n_codes
            per_ranker.append(dict(zip(codes.tolist(), zip(counts[lo:hi].tolist(), (sums[lo:hi] / counts[lo:hi])))))
            for code, ref in zip(codes.tolist(), refs[lo:hi] > 0):
                is_ref[code] = is_ref.get(code, False) or bool(ref)
        systems = sorted(is_ref)  # codes in the order of the system ids
        for (ranker, kind, _), by_code in zip(entries, per_ranker):
            means = _significant(np.array([by_code[k][1] if k in by_code else np.nan for k in systems], dtype=float))
            ranks = agreement.average_ranks(means, higher)
            for code, mean, rank in zip(systems, means, ranks):
                row = dict(zip(GROUP, key))
                row.update(ranker=ranker, ranker_kind=kind, system_id=names[code], is_reference_system=is_ref[code],
                           n_responses=int(by_code[code][0]) if code in by_code else 0,
                           mean_score=None if np.isnan(mean) else float(mean),
                           system_rank=None if np.isnan(rank) else float(rank), higher_is_better=higher)
                rows.append(row)
    return _typed(rows, RANKING_COLUMNS)


RANKING_COLUMNS = GROUP + ["ranker", "ranker_kind", "system_id", "is_reference_system", "n_responses", "mean_score",
                           "system_rank", "higher_is_better"]


def _n_systems(scores) -> dict[tuple, int]:
    """Per group (suite, task, rubric_id, rubric_version, criterion): the systems with a usable score from any
    rater (metrics included: the rows of the rank-based alpha's systems x coders matrix)."""
    keys = ", ".join(GROUP)
    table = scores.query("reliability_scores", f"""
        select {keys}, count(distinct system_id) as n_systems
        from reliability_scores where score_value is not null group by {keys}""").fetchall()
    return {tuple(row[:-1]): int(row[-1]) for row in table}


def _code_index(h, group, judges, index: dict) -> np.ndarray:
    """system code (reliability_patterns) -> row of the system means matrix (-1: none, e.g. a NULL system)."""
    parts = [h] + [group.judges[j] for j in judges]
    top = max(int(p.system_codes.max(initial=-1)) for p in parts) + 1
    out = np.full(top, -1, dtype=np.int64)
    for p in parts:
        codes, first = np.unique(p.system_codes, return_index=True)
        for code, s in zip(codes, p.system[first]):
            if s is not None:
                out[code] = index.get(s, -1)
    return out


def _coder_system_means(group: reliability_patterns.Group, humans: list[int], judges: list[str],
                  n_systems: int) -> np.ndarray:
    """systems x (human raters, judges, human mean): each coder's mean over the responses it scored of each system
    (NaN: none), the last column the mean over a system's responses of each response's mean human score; rounded
    to 12 significant digits, as _system_means does (equal means stay ties). The rows are the systems a coder
    scored, padded with NaN rows to ``n_systems``."""
    h = group.humans
    systems = sorted({s for s in h.system[h.sizes > 0] if s is not None}
                     | {s for j in judges for s in group.judges[j].system if s is not None})
    index = {s: i for i, s in enumerate(systems)}
    out = np.full((max(n_systems, len(systems)), len(humans) + len(judges) + 1), np.nan)
    if systems:
        row_system = _code_index(h, group, judges, index)[h.system_codes]
        entry_system = np.repeat(row_system, h.sizes)
        entry_units = np.repeat(h.units, h.sizes)
        column = {c: j for j, c in enumerate(humans)}
        entry_column = np.array([column.get(int(c), -1) for c in h.raters], dtype=np.int64)
        ok = (entry_system >= 0) & (entry_column >= 0)
        total = np.zeros((len(systems), len(humans)))
        count = np.zeros((len(systems), len(humans)))
        np.add.at(total, (entry_system[ok], entry_column[ok]), entry_units[ok] * h.values[ok])
        np.add.at(count, (entry_system[ok], entry_column[ok]), entry_units[ok])
        with np.errstate(invalid="ignore", divide="ignore"):
            out[:len(systems), :len(humans)] = np.where(count > 0, total / count, np.nan)
        rated = (h.sizes > 0) & (row_system >= 0)
        if rated.any():
            sums = np.add.reduceat(h.values, h.offsets[:-1][rated]) if h.values.size else np.zeros(0)
            response_mean = sums / h.sizes[rated]
            hm_total = np.bincount(row_system[rated], weights=h.units[rated] * response_mean, minlength=len(systems))
            hm_count = np.bincount(row_system[rated], weights=h.units[rated], minlength=len(systems))
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:len(systems), -1] = np.where(hm_count > 0, hm_total / hm_count, np.nan)
        code_index = _code_index(h, group, judges, index)
        for k, j in enumerate(judges):
            p = group.judges[j]
            s = code_index[p.system_codes]
            ok = s >= 0
            j_total = np.bincount(s[ok], weights=p.units[ok] * p.judge_score[ok], minlength=len(systems))
            j_count = np.bincount(s[ok], weights=p.units[ok], minlength=len(systems))
            with np.errstate(invalid="ignore", divide="ignore"):
                out[:len(systems), len(humans) + k] = np.where(j_count > 0, j_total / j_count, np.nan)
    return np.column_stack([_significant(out[:, c]) for c in range(out.shape[1])])


def _with_judge_patterns(group: reliability_patterns.Group, judge: str) -> unit_patterns.UnitPatterns:
    """The units of the coder set humans + ``judge``: the units the judge scored (their human scores and the
    judge's) and, with their human scores alone, the units with two or more usable human scores it did not score
    (the humans' count of that system and pattern minus the judge's rows with it)."""
    h, p = group.humans, group.judges[judge]
    width = int(max(h.sizes.max(initial=0), p.sizes.max(initial=0)))
    records = np.ascontiguousarray(np.concatenate([h.padded(width), p.padded(width)]))
    ids = pd.factorize(records.view(np.dtype((np.void, records.shape[1] * 8))).ravel())[0]
    scored = np.bincount(ids[h.units.size:], weights=p.units, minlength=ids.max(initial=0) + 1)
    left = h.units - scored[ids[:h.units.size]]
    keep = (h.sizes >= 2) & (left > 0)
    unscored = h.human(keep)
    with_judge = p.with_judge()
    return unit_patterns.UnitPatterns(
        np.concatenate([with_judge.values, unscored.values]),
        np.concatenate([with_judge.offsets, with_judge.offsets[-1] + unscored.offsets[1:]]),
        np.concatenate([with_judge.units, left[keep].astype(np.int64)]))


def coder_set_alpha_table(scores, directions: pd.DataFrame | None = None, *, patterns=None) -> pd.DataFrame:
    """fct_coder_set_alpha: item-level and rank-based Krippendorff's alpha of the human raters alone and with each
    judge / program rater added as a coder, per suite x task x rubric version x criterion.

    ``scores``: int_reliability_scores (a DuckDB relation, or a DataFrame); ``patterns``: int_reliability_unit_patterns
    (a relation; default: the model's SQL run on ``scores``); ``directions``: suite, rubric_id, rubric_version,
    criterion, higher_is_better. Item-level alpha comes from each coder set's unit patterns (their coincidence
    matrix, unit_patterns.krippendorff_alphas), the rank-based alpha and the ranking's tau-b from the system means
    (agreement.rank_based_alpha, agreement.kendall_tau_b); from the scores only the systems per group are counted
    (in DuckDB). The rating rows are never read into Python."""
    if patterns is None:
        relation, typed_scores, _con = reliability_patterns.pattern_relation(scores)
    else:
        relation, typed_scores = patterns, scores
        if isinstance(scores, pd.DataFrame):
            _, typed_scores, _con = reliability_patterns.pattern_relation(scores)
    n_systems = _n_systems(typed_scores)
    rows = []
    for group in reliability_patterns.read_groups(relation):
        h = group.humans
        if h is None or not (h.sizes > 0).any():
            continue
        key = group.key
        higher = _direction(directions, key)
        humans = _rater_codes(h)
        judges = sorted(group.judges)
        means = _coder_system_means(group, humans, judges, n_systems.get(tuple(key[k] for k in GROUP), 0))
        n_sys = means.shape[0]
        human_names = [h.rater_names[c] for c in humans]
        for judge in [None] + judges:
            coders = human_names + ([judge] if judge else [])
            row = dict(key)
            row.update(coder_set="humans" if judge is None else "humans + judge", judge_rater_id=judge,
                       judge_rater_kind=None if judge is None else group.judge_kinds[judge],
                       n_coders=len(coders))
            pats = h.human() if judge is None else _with_judge_patterns(group, judge)
            alphas = unit_patterns.krippendorff_alphas(pats, len(coders))
            for level in ("nominal", "ordinal", "interval"):
                r = alphas[level]
                row[f"item_alpha_{level}"] = _val(r)
                row[f"item_alpha_{level}_reason"] = r.reason
            row["n_units_pairable"] = max(r.n for r in alphas.values())
            columns = list(range(len(humans))) + ([len(humans) + judges.index(judge)] if judge else [])
            sys_values = means[:, columns]
            row["n_systems"] = n_sys
            rank_alphas = unit_patterns.rank_based_alphas(sys_values, higher)
            for level in ("nominal", "ordinal", "interval"):
                r = rank_alphas[level]
                row[f"rank_alpha_{level}"] = _val(r)
                row[f"rank_alpha_{level}_reason"] = r.reason
            if judge is None:
                row["ranking_tau_b_vs_human_mean"] = None
                row["ranking_tau_b_reason"] = "no judge in this coder set"
            else:
                t = agreement.kendall_tau_b(means[:, columns[-1]], means[:, -1])
                row["ranking_tau_b_vs_human_mean"] = _val(t)
                row["ranking_tau_b_reason"] = t.reason
            rows.append(row)
    return _typed(rows, CODER_SET_COLUMNS)


CODER_SET_COLUMNS = GROUP + [
    "coder_set", "judge_rater_id", "judge_rater_kind", "n_coders", "n_units_pairable",
    "item_alpha_nominal", "item_alpha_nominal_reason", "item_alpha_ordinal", "item_alpha_ordinal_reason",
    "item_alpha_interval", "item_alpha_interval_reason", "n_systems",
    "rank_alpha_nominal", "rank_alpha_nominal_reason", "rank_alpha_ordinal", "rank_alpha_ordinal_reason",
    "rank_alpha_interval", "rank_alpha_interval_reason", "ranking_tau_b_vs_human_mean", "ranking_tau_b_reason",
]
