"""Leaderboard tables: per-run score intervals (a dbt Python model) and the app's leaderboard assembly.

Pure pandas on DataFrames read from the marts; no database access here (see evalhouse.appdata for that).
"""
from __future__ import annotations

import re

import pandas as pd

from evalhouse.ranking import rank_bands
from evalhouse.stats import bootstrap_mean_ci

RUN_KEYS = ["suite", "rubric_id", "rubric_version", "rater_id", "rater_kind", "system_id"]
CI_LEVEL = 0.95
N_BOOT = 2000


def run_score_intervals(replies: pd.DataFrame, n_boot: int = N_BOOT, seed: int = 0) -> pd.DataFrame:
    """Per model run (suite x rubric version x rater x run): score 0-10 with a 95% percentile-bootstrap interval.

    ``replies`` has the fct_reply_scores columns (RUN_KEYS, score_status, total, max_total). Only complete replies
    count (as in fct_model_run_scores); each reply's score is total / max_total x 10, so the mean equals
    fct_model_run_scores.score_0_10 before its rounding. The resampling unit is the reply. The seed is the same for
    every run, so the interval is reproducible. Runs with 0 or 1 complete reply get NULL bounds and a reason.
    """
    cols = RUN_KEYS + ["n_replies_scored", "score_0_10", "score_ci_low", "score_ci_high", "ci_level", "n_boot",
                       "ci_method", "ci_null_reason"]
    rows = []
    complete = replies[replies["score_status"] == "complete"].copy()
    complete["reply_score"] = complete["total"].astype(float) / complete["max_total"].astype(float) * 10.0
    all_runs = replies[RUN_KEYS].drop_duplicates()
    groups = {k: g["reply_score"].to_numpy() for k, g in complete.groupby(RUN_KEYS, dropna=False)}
    for key in all_runs.itertuples(index=False, name=None):
        values = groups.get(tuple(key), [])
        res = bootstrap_mean_ci(values, level=CI_LEVEL, n_boot=n_boot, seed=seed)
        rows.append((*key, res.n, res.estimate, res.low, res.high, CI_LEVEL, n_boot, "percentile bootstrap over replies",
                     res.reason))
    out = pd.DataFrame(rows, columns=cols)
    out["rubric_version"] = out["rubric_version"].astype("int32")
    out["n_replies_scored"] = out["n_replies_scored"].astype("int32")
    out["n_boot"] = out["n_boot"].astype("int32")
    for c in ("score_0_10", "score_ci_low", "score_ci_high", "ci_level"):
        out[c] = out[c].astype("float64")
    return out


def criterion_label(criterion: str) -> str:
    """Column heading for the zeros of a criterion: 'correctness' -> 'correctness 0'."""
    return f"{criterion} 0"


def leaderboard_table(runs: pd.DataFrame, criteria: pd.DataFrame, intervals: pd.DataFrame | None = None) -> pd.DataFrame:
    """The lesson's per-run table for one filtered slice, with rank bands when intervals exist.

    ``runs``: fct_model_run_scores rows; ``criteria``: fct_model_run_criterion_scores rows (same slice);
    ``intervals``: fct_model_run_score_intervals rows or None. One output row per run key, columns:
    model run, rater, rater kind, rubric version, ready, "ready of N" text, score 0-10, a "<criterion> 0" column per
    criterion (replies with the criterion at its minimum), and with intervals: 95% CI low/high, tie group, rank band
    and rank range. Sorted best first (score, then run name).
    """
    if runs.empty:
        return pd.DataFrame()
    base = runs.copy()
    base["ready of N"] = base["n_ready"].astype(int).astype(str) + " of " + base["n_replies_rated"].astype(int).astype(str)
    base["score_0_10"] = base["score_0_10"].astype(float)
    out = base[RUN_KEYS + ["n_ready", "n_replies_rated", "ready of N", "score_0_10", "n_stale_scores"]]
    if not criteria.empty:
        order = criteria.groupby("criterion")["criterion_order"].min().sort_values().index.tolist()
        zeros = criteria.pivot_table(index=RUN_KEYS, columns="criterion", values="n_at_minimum", aggfunc="sum")
        zeros = zeros.reindex(columns=order)
        zeros.columns = [criterion_label(c) for c in zeros.columns]
        out = out.merge(zeros.reset_index(), on=RUN_KEYS, how="left")
    if intervals is not None and not intervals.empty:
        iv = intervals[RUN_KEYS + ["score_ci_low", "score_ci_high"]]
        out = out.merge(iv, on=RUN_KEYS, how="left")
        bands = add_rank_bands(out, "system_id", "score_0_10", "score_ci_low", "score_ci_high", group_cols=[
            "suite", "rubric_id", "rubric_version", "rater_id"])
        out = bands
    out = out.sort_values(["score_0_10", "system_id"], ascending=[False, True], kind="stable").reset_index(drop=True)
    return out


def add_rank_bands(df: pd.DataFrame, id_col: str, estimate_col: str, low_col: str, high_col: str,
                   group_cols: list[str] | None = None, higher_is_better: bool = True) -> pd.DataFrame:
    """Add tie_group, rank_band and rank_range columns (evalhouse.ranking.rank_bands) within each group.

    Runs are only compared inside one group (e.g. one suite x rubric version x rater): a rank across raters or
    rubric versions means nothing.
    """
    df = df.copy()
    df["tie_group"] = pd.array([None] * len(df), dtype="Int64")
    df["rank_band"] = None
    df["rank_range"] = None
    parts = [part for _, part in df.groupby(group_cols, dropna=False)] if group_cols else [df]
    for part in parts:
        ranked = rank_bands([(i, r[estimate_col], r[low_col], r[high_col]) for i, r in part.iterrows()],
                            higher_is_better=higher_is_better)
        for r in ranked:
            df.at[r.id, "tie_group"] = r.tie_group
            df.at[r.id, "rank_band"] = r.band
            df.at[r.id, "rank_range"] = (None if r.rank_best is None else
                                         (str(r.rank_best) if r.rank_best == r.rank_worst
                                          else f"{r.rank_best}-{r.rank_worst}"))
    return df


# ---------------------------------------------------------------------------------------------------------------------
# Finding interval columns in any mart (other suites add composites with CIs; the app shows each one it finds)
# ---------------------------------------------------------------------------------------------------------------------
_LOW = re.compile(r"^(?P<stem>.*?)(?:_)?(?:ci_?(?:95_?)?(?:low|lower|lo)|(?:low|lower)_ci(?:_?95)?)$")
_ID_COLUMNS = ("system_id", "model_run", "model", "model_id", "group_id", "group_name", "group", "system", "judge_id")


def find_interval_columns(columns: list[str]) -> list[dict]:
    """Interval column sets in a table's column list: [{estimate, low, high}, ...].

    A low column is ``<stem>_ci_low`` / ``<stem>_ci_lower`` / ``<stem>_ci95_low`` / ``<stem>_lower_ci`` (or the same
    without a stem: ``ci_low``...); its high column replaces low/lower/lo by high/upper/hi; its estimate is ``<stem>``
    when that column exists, else the first of composite / score / estimate / value / mean present.
    """
    cols = set(columns)
    found = []
    for c in columns:
        m = _LOW.match(c)
        if not m:
            continue
        high = None
        for a, b in (("lower", "upper"), ("lower", "high"), ("low", "high"), ("lo", "hi")):
            cand = c[::-1].replace(a[::-1], b[::-1], 1)[::-1]
            if cand != c and cand in cols:
                high = cand
                break
        if high is None:
            continue
        stem = m.group("stem").rstrip("_")
        estimate = stem if stem in cols else next(
            (e for e in ("composite", "score", "estimate", "value", "mean") if e in cols), None)
        if estimate is None:
            continue
        found.append({"estimate": estimate, "low": c, "high": high})
    return found


def find_id_column(columns: list[str]) -> str | None:
    """The column naming the ranked thing (model run, model, group...), or None."""
    for c in _ID_COLUMNS:
        if c in columns:
            return c
    return None
