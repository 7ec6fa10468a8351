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
"""
from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
import pandas as pd

from evalhouse.stats import agreement
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

def reliability_table(scores: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for key, frame in _groups(scores[scores["rater_kind"] == "human"]):
        scale = _scale(frame)
        m = _matrix(frame)
        values = m.to_numpy(dtype=float) if not m.empty else np.empty((0, 0))
        n_per_unit = (~np.isnan(values)).sum(axis=1) if values.size else np.array([], dtype=int)
        row = dict(key)
        row.update(
            scale_min=_clean(frame["min_score"].min()),
            scale_max=_clean(frame["max_score"].max()),
            n_levels=len(scale) if scale else None,
            n_raters=int(values.shape[1]) if values.size else 0,
            n_units=int(frame["response_id"].nunique()),
            n_units_rated=int((n_per_unit >= 1).sum()),
            n_units_pairable=int((n_per_unit >= 2).sum()),
            n_ratings_used=int(frame["score_value"].notna().sum()),
            n_ratings_excluded=int(frame["n_excluded"].sum()),
        )
        for level in ("nominal", "ordinal", "interval"):
            r = agreement.krippendorff_alpha(values, level) if values.size else \
                StatResult(None, 0, "no usable ratings")
            row[f"alpha_{level}"] = _val(r)
            row[f"alpha_{level}_reason"] = r.reason
        icc = agreement.icc1(values) if values.size else None
        row["icc_1_1"] = _val(icc.single) if icc else None
        row["icc_1_k"] = _val(icc.average) if icc else None
        row["icc_k"] = icc.k if icc else 0
        row["icc_n_units"] = icc.single.n if icc else 0
        row["icc_1_1_reason"] = icc.single.reason if icc else "no usable ratings"
        row["icc_1_k_reason"] = icc.average.reason if icc else "no usable ratings"
        sp = agreement.mean_pairwise_spearman(values) if values.size else StatResult(None, 0, "no usable ratings")
        row["mean_pairwise_spearman"] = _val(sp)
        row["n_rater_pairs"] = sp.n
        row["mean_pairwise_spearman_reason"] = sp.reason
        pa = agreement.percent_agreement(values) if values.size else StatResult(None, 0, "no usable ratings")
        row["exact_agreement"] = _val(pa)
        row["exact_agreement_reason"] = pa.reason
        if values.size and (n_per_unit >= 2).any():
            pairable = values[n_per_unit >= 2]
            row["all_raters_agree_share"] = float(np.mean(np.nanmax(pairable, axis=1) == np.nanmin(pairable, axis=1)))
        else:
            row["all_raters_agree_share"] = None
        whole = scale is not None and values.size and np.all(np.isnan(values) | (values == np.round(values)))
        labels = scale if whole else None
        fk = agreement.fleiss_kappa(values, labels) if values.size else StatResult(None, 0, "no usable ratings")
        row["fleiss_kappa"] = _val(fk)
        row["fleiss_kappa_reason"] = fk.reason
        ac = agreement.gwet_ac1(values, labels) if values.size else StatResult(None, 0, "no usable ratings")
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


def coder_set_alpha_table(scores: pd.DataFrame, directions: pd.DataFrame | None = None) -> pd.DataFrame:
    rows = []
    for key, frame in _groups(scores):
        humans = sorted(frame.loc[(frame["rater_kind"] == "human") & frame["score_value"].notna(),
                                  "rater_id"].unique())
        if not humans:
            continue
        # metric raters score on their own scale, not the rubric's: alpha with them as coders is not defined
        judges = sorted(frame.loc[frame["rater_kind"].isin(("judge", "program")) & frame["score_value"].notna(),
                                  "rater_id"].unique())
        higher = _direction(directions, key)
        wide = _matrix(frame)
        means = _system_means(frame)
        # each rater's kind as its first row gives it (a scan of the group per judge cost ~5 ms)
        first_kind = frame.drop_duplicates("rater_id").set_index("rater_id")["rater_kind"].to_dict()
        for judge in [None] + judges:
            coders = humans + ([judge] if judge else [])
            row = dict(key)
            row.update(coder_set="humans" if judge is None else "humans + judge", judge_rater_id=judge,
                       judge_rater_kind=None if judge is None else first_kind[judge],
                       n_coders=len(coders))
            item_values = wide[coders].to_numpy(float)
            n_units = []
            for level in ("nominal", "ordinal", "interval"):
                r = agreement.krippendorff_alpha(item_values, level)
                row[f"item_alpha_{level}"] = _val(r)
                row[f"item_alpha_{level}_reason"] = r.reason
                n_units.append(r.n)
            row["n_units_pairable"] = max(n_units)
            sys_values = means[coders].to_numpy(float)
            row["n_systems"] = int(len(means))
            for level in ("nominal", "ordinal", "interval"):
                r = agreement.rank_based_alpha(sys_values, level, higher)
                row[f"rank_alpha_{level}"] = _val(r)
                row[f"rank_alpha_{level}_reason"] = r.reason
            if judge is None:
                row["ranking_tau_b_vs_human_mean"] = None
                row["ranking_tau_b_reason"] = "no judge in this coder set"
            else:
                t = agreement.kendall_tau_b(means[judge].to_numpy(float), means["human_mean"].to_numpy(float))
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
