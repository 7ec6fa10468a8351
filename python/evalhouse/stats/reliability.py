"""Inter-rater reliability and judge-vs-human meta-evaluation tables (the Python dbt models' logic).

Every function takes the long table of ``int_reliability_scores`` as a pandas DataFrame (one row per suite x task x
rubric version x criterion x response x rater; columns below) and returns one mart as a DataFrame. The statistics
themselves live in :mod:`evalhouse.stats`; this module only groups, pivots and names.

Input columns: suite, task, rubric_id, rubric_version, criterion, min_score, max_score, response_id, item_id,
system_id, is_reference_system, response_chars, rater_id, rater_kind, score_value (NULL = unusable), n_scores,
n_excluded, excluded_reason.

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


def with_failure_policy(scores: pd.DataFrame, policy: str) -> pd.DataFrame:
    """The scores as a judge-failure policy reads them: ``excluded`` = as given; ``as_recorded`` = score_value and
    n_excluded replaced by score_value_as_recorded / n_excluded_as_recorded (when those columns exist)."""
    if policy not in FAILURE_POLICIES:
        raise ValueError(f"unknown judge_failure_policy {policy!r} (known: {', '.join(FAILURE_POLICIES)})")
    if policy == "excluded" or "score_value_as_recorded" not in scores.columns:
        return scores
    out = scores.copy()
    out["score_value"] = out["score_value_as_recorded"]
    if "n_excluded_as_recorded" in out.columns:
        out["n_excluded"] = out["n_excluded_as_recorded"]
    return out


def by_failure_policy(table_fn, scores: pd.DataFrame) -> pd.DataFrame:
    """``table_fn`` computed under each judge-failure policy, stacked, with a ``judge_failure_policy`` column
    (second column after suite)."""
    parts = []
    for policy in FAILURE_POLICIES:
        t = table_fn(with_failure_policy(scores, policy))
        t.insert(1, "judge_failure_policy", pd.array([policy] * len(t), dtype="string"))
        parts.append(t)
    return pd.concat(parts, ignore_index=True)


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


def _typed(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    """A DataFrame with stable nullable dtypes (so an all-NULL column keeps its SQL type and NaN becomes NULL)."""
    df = pd.DataFrame(rows, columns=columns)
    for col in columns:
        dtype = _dtype(col)
        df[col] = df[col].astype(object).where(df[col].notna(), None).astype(dtype) if dtype != "Float64" else \
            pd.to_numeric(df[col].astype(object).where(df[col].notna(), None), errors="raise").astype("Float64")
    return df


_STRING_COLS = {"suite", "task", "rubric_id", "criterion", "rater_id", "rater_kind", "comparison", "level",
                "ranker", "ranker_kind", "system_id", "coder_set", "judge_rater_id", "judge_rater_kind"}
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
    values, reasons = [], []
    empty = (np.empty(0), np.empty(0), np.empty(0))
    for i, a in enumerate(raters):
        for b in raters[i + 1:]:
            r = unit_patterns.spearman_from_counts(*cells.get((a, b), empty))
            if r.value is None:
                reasons.append(r.reason)
            else:
                values.append(r.value)
    if not values:
        return StatResult(None, 0, "no rater pair with a defined Spearman rho" + (f" ({reasons[0]})" if reasons
                                                                                 else ""))
    return StatResult(float(np.mean(values)), len(values))


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


def _paired_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """response x (every rater's score, human_mean) joined with the response info."""
    wide = _matrix(frame)
    hm = _human_mean(frame)
    info = _response_info(frame)
    return info.join(hm, how="left").join(wide, how="left")


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


def judge_human_table(scores: pd.DataFrame) -> pd.DataFrame:
    rows, samples = [], []
    for key, frame in _groups(scores):
        raters = frame[["rater_id", "rater_kind"]].drop_duplicates().sort_values(["rater_kind", "rater_id"])
        if not (frame["rater_kind"] == "human").any():
            continue
        paired = _paired_frame(frame)
        is_ref = paired["is_reference_system"].fillna(False).astype(bool).to_numpy()
        has_ref = bool(is_ref.any())
        system_code, _ = pd.factorize(paired["system_id"])
        human = paired["human_mean"].to_numpy(float)
        for rater_id, rater_kind in raters.itertuples(index=False):
            comparison = "human_ceiling" if rater_kind == "human" else rater_kind
            score = paired[rater_id].to_numpy(float) if rater_id in paired else np.full(len(paired), np.nan)
            both = ~np.isnan(score) & ~np.isnan(human)
            for include_ref in ([True, False] if has_ref else [True]):
                keep = both if include_ref else both & ~is_ref
                x, y, codes = score[keep], human[keep], system_code[keep]
                # system level: per system, the means over the responses both sides scored, rounded to 12
                # significant digits so that equal means stay ties whatever order the sum took (tau-b and rho
                # count ties)
                present = np.unique(codes)
                counts = np.bincount(codes)[present]
                sys_x = _significant(np.bincount(codes, weights=x)[present] / counts)
                sys_y = _significant(np.bincount(codes, weights=y)[present] / counts)
                for level, sample in (("item", (x, y)), ("system", (sys_x, sys_y))):
                    row = dict(key)
                    row.update(rater_id=rater_id, rater_kind=rater_kind, comparison=comparison, level=level,
                               reference_system_included=include_ref, suite_has_reference_system=has_ref,
                               n_systems=int(present.size))
                    rows.append(row)
                    samples.append(sample)
    # every correlation of every group at once (one scipy call each cost ~1 ms, most of this mart's build)
    for row, res in zip(rows, _three_many(samples)):
        row.update(n=res["n"], kendall_tau_b=res["kendall_tau_b"], spearman_rho=res["spearman_rho"],
                   pearson_r=res["pearson_r"], correlation_reason=res["reason"])
    return _typed(rows, JUDGE_HUMAN_COLUMNS)


JUDGE_HUMAN_COLUMNS = GROUP + [
    "rater_id", "rater_kind", "comparison", "level", "reference_system_included", "suite_has_reference_system",
    "n", "n_systems", "kendall_tau_b", "spearman_rho", "pearson_r", "correlation_reason",
]


# ------------------------------------------------------------------------------------------------------------------
# 3. Judge diagnostics (AlpacaEval-style)
# ------------------------------------------------------------------------------------------------------------------

def _round_half_up(a: np.ndarray) -> np.ndarray:
    return np.floor(a + 0.5)


def judge_diagnostics_table(scores: pd.DataFrame) -> pd.DataFrame:
    rows, length_samples = [], []
    for key, frame in _groups(scores):
        judges = sorted(frame.loc[frame["rater_kind"].isin(JUDGE_KINDS), "rater_id"].unique())
        if not judges:
            continue
        paired = _paired_frame(frame)
        kinds = frame.drop_duplicates("rater_id").set_index("rater_id")["rater_kind"]
        excluded = frame.groupby("rater_id", observed=True)["n_excluded"].sum()
        human = paired["human_mean"].to_numpy(float)
        chars = paired["response_chars"].to_numpy(float)
        for judge in judges:
            score = paired[judge].to_numpy(float) if judge in paired else np.full(len(paired), np.nan)
            keep = ~np.isnan(score) & ~np.isnan(human)
            j, h = score[keep], human[keep]
            n = int(keep.sum())
            row = dict(key)
            row.update(rater_id=judge, rater_kind=kinds[judge], n_items=n,
                       n_judge_scores_excluded=int(excluded.get(judge, 0)))
            if n == 0:
                row.update(judge_mean=None, human_mean=None, mean_bias=None, judge_variance=None,
                           human_mean_variance=None, same_level_share=None,
                           diagnostics_reason="no response scored by both the judge and a human")
            else:
                row.update(judge_mean=float(j.mean()), human_mean=float(h.mean()), mean_bias=float((j - h).mean()),
                           judge_variance=float(j.var(ddof=1)) if n >= 2 else None,
                           human_mean_variance=float(h.var(ddof=1)) if n >= 2 else None,
                           same_level_share=float(np.mean(_round_half_up(j) == _round_half_up(h))),
                           diagnostics_reason=None if n >= 2 else "one item only: variance undefined")
            with_text = keep & ~np.isnan(chars)
            row["n_items_with_text"] = int(with_text.sum())
            rows.append(row)
            if row["n_items_with_text"]:
                length_samples.append((len(rows) - 1, score[with_text], human[with_text], chars[with_text]))
            else:
                row.update(judge_length_spearman=None, human_length_spearman=None,
                           length_reason="no response texts in this suite")
    # every length correlation at once (agreement.correlations_many; the values of agreement.spearman_rho)
    rho = agreement.correlations_many(
        [pair for _, j, h, c in length_samples for pair in ((j, c), (h, c))], methods=("spearman",))["spearman"]
    for k, (index, *_) in enumerate(length_samples):
        lj, lh = rho[2 * k], rho[2 * k + 1]
        rows[index].update(judge_length_spearman=_val(lj), human_length_spearman=_val(lh),
                           length_reason=lj.reason or lh.reason)
    return _typed(rows, DIAGNOSTICS_COLUMNS)


DIAGNOSTICS_COLUMNS = GROUP + [
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


def system_rankings_table(scores: pd.DataFrame, directions: pd.DataFrame | None = None) -> pd.DataFrame:
    rows = []
    for key, frame in _groups(scores):
        if frame["score_value"].notna().sum() == 0:
            continue
        higher = _direction(directions, key)
        human = _human_by_system(frame)
        means = _system_means(frame, human)
        counts = frame[frame["score_value"].notna()].groupby(["system_id", "rater_id"]).size().unstack()
        hcount = human.groupby("system_id").size()
        kinds = frame.drop_duplicates("rater_id").set_index("rater_id")["rater_kind"].to_dict()
        refs = frame.drop_duplicates("system_id").set_index("system_id")["is_reference_system"].to_dict()
        systems = list(means.index)
        is_ref = [bool(refs.get(system_id, False)) for system_id in systems]
        for ranker in means.columns:
            col = means[ranker].to_numpy(float)
            ranks = agreement.average_ranks(col, higher)
            if ranker == "human_mean":
                n = hcount.reindex(means.index)
            else:
                n = counts[ranker].reindex(means.index) if ranker in counts else pd.Series(0, index=means.index)
            n = n.to_numpy(dtype=float, na_value=0.0)
            ranker_kind = "human_mean" if ranker == "human_mean" else kinds.get(ranker)
            for system_id, ref, count, mean, rank in zip(systems, is_ref, n, col, ranks):
                row = dict(key)
                row.update(ranker=ranker, ranker_kind=ranker_kind, system_id=system_id, is_reference_system=ref,
                           n_responses=int(count), mean_score=None if np.isnan(mean) else float(mean),
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
