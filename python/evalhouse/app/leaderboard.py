"""Leaderboard tables: per-run score intervals (a dbt Python model) and the app's leaderboard assembly.

Pure pandas on DataFrames read from the marts; no database access here (see evalhouse.app.data for that).
"""
from __future__ import annotations

import re
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal

import pandas as pd

from evalhouse.stats.bootstrap import bootstrap_mean_ci_counts
from evalhouse.stats.ranking import rank_bands

RUN_KEYS = ["suite", "rubric_id", "rubric_version", "rater_id", "rater_kind", "system_id"]
CI_LEVEL = 0.95
N_BOOT = 2000
MIN_REPLIES_FOR_INTERVAL = 5  # dbt var min_replies_for_interval


def run_score_intervals(replies: pd.DataFrame, n_boot: int = N_BOOT, seed: int = 0,
                        min_replies: int = MIN_REPLIES_FOR_INTERVAL) -> pd.DataFrame:
    """Per model run (suite x rubric version x rater x run): score 0-10 with a 95% percentile-bootstrap interval.

    ``replies`` has the fct_reply_scores columns (RUN_KEYS, score_status, total, max_total). Only complete replies
    count (as in fct_model_run_scores); each reply's score is total / max_total x 10. score_0_10 is the exact
    sum(total) x 10 / sum(max_total) rounded half-up to 2 decimals: the same value as fct_model_run_scores.score_0_10.
    The bounds are put on the same 2-decimal grid, rounded outward (low down, high up; ``score_grid_bounds``), so the
    interval still contains the score. The resampling unit is the reply. The seed is the same for every run, so the
    interval is reproducible. Runs with 0 or 1 complete reply get NULL bounds and a reason.
    A bootstrap over a handful of replies is far too narrow (two equal replies give [v, v]): runs with fewer than
    ``min_replies`` complete replies keep their interval but are flagged (``is_below_min_replies``) and not ranked.
    With an ``n_rows`` column, each row stands for that many equal replies (the replies counted by value in SQL):
    the same intervals as the listed replies (``bootstrap_mean_ci_counts``), from a few hundred rows for a million.
    """
    if min_replies < 2:
        raise ValueError(f"min_replies must be at least 2, got {min_replies}")
    cols = RUN_KEYS + ["n_replies_scored", "score_0_10", "score_ci_low", "score_ci_high", "ci_level", "n_boot",
                       "ci_method", "score_ci_reason"]
    rows = []
    complete = replies[replies["score_status"] == "complete"].copy()
    complete["reply_score"] = complete["total"].astype(float) / complete["max_total"].astype(float) * 10.0
    if "n_rows" not in complete.columns:
        complete["n_rows"] = 1
    complete["total"] = complete["total"] * complete["n_rows"]
    complete["max_total"] = complete["max_total"] * complete["n_rows"]
    all_runs = replies[RUN_KEYS].drop_duplicates()
    groups = {k: (g["reply_score"].to_numpy(), g["n_rows"].to_numpy())
              for k, g in complete.groupby(RUN_KEYS, dropna=False)}
    sums = complete.groupby(RUN_KEYS, dropna=False)[["total", "max_total"]].sum()
    for key in all_runs.itertuples(index=False, name=None):
        values, counts = groups.get(tuple(key), ([], []))
        res = bootstrap_mean_ci_counts(values, counts, level=CI_LEVEL, n_boot=n_boot, seed=seed)
        score = None
        if res.n:
            total, max_total = sums.loc[tuple(key)]
            score = float(score_0_10(int(total), int(max_total)))
        low, high = score_grid_bounds(res.low, res.high)
        rows.append((*key, res.n, score, low, high, CI_LEVEL, n_boot, "percentile bootstrap over replies",
                     res.reason))
    out = pd.DataFrame(rows, columns=cols)
    out["rubric_version"] = out["rubric_version"].astype("int32")
    out["n_replies_scored"] = out["n_replies_scored"].astype("int32")
    out["n_boot"] = out["n_boot"].astype("int32")
    for c in ("score_0_10", "score_ci_low", "score_ci_high", "ci_level"):
        out[c] = out[c].astype("float64")
    out["min_replies_for_interval"] = pd.Series([min_replies] * len(out), dtype="int32")
    out["is_below_min_replies"] = out["n_replies_scored"] < min_replies
    return out


def score_0_10(sum_total: int, sum_max_total: int) -> Decimal:
    """sum_total x 10 / sum_max_total, exact, rounded half-up to 2 decimals (seed 000: "mean total / 8 x 10"; the
    ratio_round_half_up macro in SQL). 30 of 32 -> 9.38 (9.375 half-up); 10 of 32 -> 3.13. Raises on sum_max_total 0."""
    if sum_max_total == 0:
        raise ValueError("no maximum total: score 0-10 is undefined")
    return (Decimal(sum_total) * 10 / Decimal(sum_max_total)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def outward_bounds(low, high, places: int) -> tuple[Decimal | None, Decimal | None]:
    """An interval (floats) as DECIMALs with ``places`` decimals, rounded outward: low down, high up, after dropping
    float noise two places below the grid (6.2499999999999 -> 6.25 at 2 places, not 6.24). Outward rounding keeps
    every value the interval contained, so an estimate inside it, rounded to the same grid, stays inside.
    None / NaN stay None."""
    def grid(v, rounding):
        if v is None or pd.isna(v):
            return None
        return Decimal(repr(round(float(v), places + 2))).quantize(Decimal(1).scaleb(-places), rounding=rounding)
    return grid(low, ROUND_FLOOR), grid(high, ROUND_CEILING)


def score_grid_bounds(low, high) -> tuple[float | None, float | None]:
    """A score_0_10 interval on score_0_10's 2-decimal grid, rounded outward (``outward_bounds``), as floats."""
    lo, hi = outward_bounds(low, high, 2)
    return (None if lo is None else float(lo)), (None if hi is None else float(hi))


def rank_reason(n_replies_scored, min_replies) -> str:
    """Why a run is not ranked although it has a score: too few complete replies for a trustworthy interval."""
    n = int(n_replies_scored)
    return (f"{n} complete {'reply' if n == 1 else 'replies'}, fewer than {int(min_replies)} "
            "(min_replies_for_interval): not ranked")


def criterion_label(criterion: str, direction: str | None = "higher") -> str:
    """Column heading for the replies at a criterion's worst level: 'correctness' -> 'correctness 0' (its zeros);
    a lower-is-better criterion (a count of errors, a fault flag) loses its points at the maximum, so its column is
    'grammaticality worst' and never counts the best replies as zeros."""
    return f"{criterion} worst" if direction == "lower" else f"{criterion} 0"


def is_worst_column(column: str) -> bool:
    """True for the per-criterion columns of replies at the worst level ('<criterion> 0' / '<criterion> worst')."""
    return column.endswith(" 0") or column.endswith(" worst")


def leaderboard_table(runs: pd.DataFrame, criteria: pd.DataFrame,
                      intervals: pd.DataFrame | None = None) -> pd.DataFrame:
    """The per-run table (scores 0-10, ready share, zeros per criterion) for one filtered slice, with rank bands when
    intervals exist.

    ``runs``: fct_model_run_scores rows; ``criteria``: fct_model_run_criterion_scores rows (same slice);
    ``intervals``: fct_model_run_score_intervals rows or None. One output row per run key, columns:
    model run, rater, rater kind, rubric version, ready, "ready of N" text (None when the rubric has no ready rule:
    n_ready is NULL), score 0-10 with n_replies_scored (the complete replies behind it), a "<criterion> 0" column
    per criterion (replies with the criterion at its worst level: its minimum, or its maximum for a lower-is-better
    criterion, then headed "<criterion> worst"; missing when the rater scored none of the run's replies on it), and
    with intervals: 95% CI low/high, is_below_min_replies, tie group, rank band, rank range and rank_reason. Runs
    with fewer complete replies than the interval mart's min_replies_for_interval are not ranked (rank columns
    missing, rank_reason says why). Tie groups are numbered within one rater (and rubric). Sorted best
    first (score, then run name).
    """
    if runs.empty:
        return pd.DataFrame()
    base = runs.copy()
    ready = pd.to_numeric(base["n_ready"], errors="coerce")
    base["ready of N"] = [None if pd.isna(r) else f"{int(r)} of {int(n)}"
                          for r, n in zip(ready, base["n_replies_rated"])]
    base["score_0_10"] = base["score_0_10"].astype(float)
    if "n_replies_scored" not in base:
        base["n_replies_scored"] = pd.NA
    out = base[RUN_KEYS + ["n_ready", "n_replies_rated", "n_replies_scored", "ready of N", "score_0_10",
                           "n_stale_scores"]]
    if not criteria.empty:
        order = criteria.groupby("criterion")["criterion_order"].min().sort_values().index.tolist()
        crit = criteria.copy()
        # worst level = the minimum for higher-is-better criteria, the maximum for lower-is-better ones
        worst = "n_at_worst" if "n_at_worst" in crit else "n_at_minimum"
        crit["n_worst"] = crit[worst].astype("Float64")
        if "n_scored" in crit:  # a criterion the rater never scored for the run has no zeros to count
            crit["n_worst"] = crit["n_worst"].where(crit["n_scored"] > 0)
        direction = (crit.groupby("criterion")["direction"].first() if "direction" in crit
                     else pd.Series("higher", index=order))
        zeros = crit.groupby(RUN_KEYS + ["criterion"], dropna=False)["n_worst"].sum(min_count=1)
        zeros = zeros.unstack("criterion").reindex(columns=order)
        zeros.columns = [criterion_label(c, direction.get(c)) for c in zeros.columns]
        out = out.merge(zeros.reset_index(), on=RUN_KEYS, how="left")
        for c in zeros.columns:
            out[c] = out[c].astype("Int64")
    if intervals is not None and not intervals.empty:
        keep = ["score_ci_low", "score_ci_high"] + [c for c in ("is_below_min_replies", "min_replies_for_interval")
                                                    if c in intervals]
        iv = intervals[RUN_KEYS + keep + (["n_replies_scored"] if "n_replies_scored" in intervals else [])]
        out = out.merge(iv.rename(columns={"n_replies_scored": "_iv_n"}), on=RUN_KEYS, how="left")
        if "_iv_n" in out:  # the same count (complete replies); fills a runs frame that lacks it
            out["n_replies_scored"] = out["n_replies_scored"].astype("Int64").fillna(out["_iv_n"].astype("Int64"))
            out = out.drop(columns=["_iv_n"])
        rankable = None
        if "is_below_min_replies" in out:
            out["is_below_min_replies"] = out["is_below_min_replies"].astype("boolean")
            rankable = "rankable"
            out[rankable] = ~out["is_below_min_replies"].fillna(False)
        out = add_rank_bands(out, "system_id", "score_0_10", "score_ci_low", "score_ci_high", group_cols=[
            "suite", "rubric_id", "rubric_version", "rater_id"], rankable_col=rankable)
        if rankable:
            below = out["is_below_min_replies"].fillna(False) & out["score_0_10"].notna()
            out.loc[below, "rank_reason"] = [rank_reason(n, m) for n, m in zip(
                out.loc[below, "n_replies_scored"].fillna(0), out.loc[below, "min_replies_for_interval"])]
            out = out.drop(columns=[rankable])
    out = out.sort_values(["score_0_10", "system_id"], ascending=[False, True], kind="stable").reset_index(drop=True)
    return out


def _qualifiers(board: pd.DataFrame) -> list[str]:
    """The key columns that vary in ``board`` besides the run: rubric (Sottana's tasks), rater."""
    return [c for c in ("rubric_id", "rater_id") if c in board and board[c].nunique() > 1]


def group_labels(board: pd.DataFrame, quals: list[str] | None = None) -> list:
    """Tie group labels for display: "2" when the board holds one rater and one rubric, else "<rater> · 2" (and the
    rubric), because groups are numbered within each rater x rubric; None for an unranked run."""
    quals = _qualifiers(board) if quals is None else quals
    out = []
    for _, r in board.iterrows():
        g = r.get("tie_group")
        out.append(None if pd.isna(g) else " · ".join([*(str(r[q]) for q in quals), str(int(g))]))
    return out


def ci_flag(row) -> str | None:
    """"n < 5" when the run's interval comes from fewer complete replies than the mart's minimum, else None."""
    below = getattr(row, "is_below_min_replies", None)
    if below is None or pd.isna(below) or not bool(below) or pd.isna(getattr(row, "score_ci_low", None)):
        return None
    return f"n < {int(row.min_replies_for_interval)}: not ranked"


def interval_chart_data(board: pd.DataFrame) -> pd.DataFrame:
    """One row per run with an interval, for the dot-and-bar chart: ``label`` names the run uniquely on the board
    (run, plus the rubric and the rater when the board has several), so a dot and its bar never land on another
    run's row (Sottana's runs repeat across its three task rubrics). tie_group is the display label ("not ranked"
    for runs below the minimum of replies)."""
    plot = board[board["score_ci_low"].notna()].copy()
    if plot.empty:
        return pd.DataFrame(columns=["label"])
    quals = _qualifiers(board)
    plot["label"] = [" · ".join([str(r["system_id"]), *(str(r[q]) for q in quals)]) for _, r in plot.iterrows()]
    labels = group_labels(plot, quals) if "tie_group" in plot else [None] * len(plot)
    plot["tie_group"] = [lab if lab is not None else "not ranked" for lab in labels]
    cols = ["label", "system_id", "n_replies_scored", "score_0_10", "score_ci_low", "score_ci_high", "rank_band",
            "tie_group"]
    plot = plot[[c for c in cols if c in plot]]
    for c in ("score_0_10", "score_ci_low", "score_ci_high"):
        plot[c] = plot[c].astype(float)
    if "n_replies_scored" in plot:
        plot["n_replies_scored"] = plot["n_replies_scored"].astype(float)
    return plot.reset_index(drop=True)


def add_rank_bands(df: pd.DataFrame, id_col: str, estimate_col: str, low_col: str, high_col: str,
                   group_cols: list[str] | None = None, higher_is_better: bool = True,
                   rankable_col: str | None = None) -> pd.DataFrame:
    """Add tie_group, rank_band, rank_range and rank_reason columns (evalhouse.stats.ranking.rank_bands) within each
    group.

    Runs are only compared inside one group (e.g. one suite x rubric version x rater): a rank across raters or
    rubric versions means nothing. Rows whose ``rankable_col`` is False take no part in the ranking (their rank
    columns stay missing; the caller gives their rank_reason). rank_reason is "no interval" / "no estimate" from
    rank_bands, else missing.
    """
    df = df.copy()
    df["tie_group"] = pd.array([None] * len(df), dtype="Int64")
    df["rank_band"] = None
    df["rank_range"] = None
    df["rank_reason"] = None
    parts = [part for _, part in df.groupby(group_cols, dropna=False)] if group_cols else [df]
    for part in parts:
        if rankable_col:
            part = part[part[rankable_col].astype(bool)]
        ranked = rank_bands([(i, r[estimate_col], r[low_col], r[high_col]) for i, r in part.iterrows()],
                            higher_is_better=higher_is_better)
        for r in ranked:
            df.at[r.id, "tie_group"] = r.tie_group
            df.at[r.id, "rank_band"] = r.band
            df.at[r.id, "rank_range"] = (None if r.rank_best is None else
                                         (str(r.rank_best) if r.rank_best == r.rank_worst
                                          else f"{r.rank_best}-{r.rank_worst}"))
            df.at[r.id, "rank_reason"] = r.reason
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
