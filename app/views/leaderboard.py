"""Leaderboard: per model run, ready of N, score 0-10, zeros per criterion; 95% intervals with tie groups."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402
from evalhouse.app.leaderboard import (  # noqa: E402
    add_rank_bands,
    ci_flag,
    group_labels,
    interval_chart_data,
    is_worst_column,
    leaderboard_table,
)

st.title("Leaderboard")
sig = ac.guard()


@st.cache_data(show_spinner=False, max_entries=64)
def _board(sig, suite, version, kind, rater):
    data = appdata.leaderboard_data(suite, version, kind, rater)
    return leaderboard_table(data["runs"], data["criteria"], data.get("intervals")), "intervals" in data


@st.cache_data(show_spinner=False, max_entries=16)
def _interval_marts(sig):
    return appdata.interval_marts()


@st.cache_data(show_spinner=False, max_entries=64)
def _mart(sig, table):
    return appdata.read(f'select * from "{table}"')


sel = ac.pick_slice(sig, "lb")
board, has_intervals = _board(sig, sel["suite"], sel["rubric_version"], sel["rater_kind"], sel["rater_id"])

SORTS = {
    "score 0-10 (best first)": (["score_0_10", "system_id"], [False, True]),
    "rank band": (["tie_group", "score_0_10", "system_id"], [True, False, True]),
    "ready (most first)": (["n_ready", "score_0_10"], [False, False]),
    "model run (A-Z)": (["system_id"], [True]),
}
c1, c2 = st.columns([2, 3])
sort = c1.selectbox("Sort by", [s for s in SORTS if has_intervals or s != "rank band"], key="lb_sort")
run_filter = c2.text_input("Filter model runs (text in the name)", key="lb_filter")

if board.empty:
    st.info("No model runs in this slice.")
    st.stop()
cols, asc = SORTS[sort]
board = board.sort_values(cols, ascending=asc, kind="stable", na_position="last")
if run_filter:
    board = board[board["system_id"].str.contains(run_filter, case=False, regex=False)]

zero_cols = [c for c in board.columns if is_worst_column(c)]
board = board.copy()
several_raters = board["rater_id"].nunique() > 1
several_rubrics = board["rubric_id"].nunique() > 1
if has_intervals:
    # Tie groups are numbered within one rater and rubric: name them so, so groups of two raters never look shared.
    board["tie group"] = group_labels(board)
    board["CI flag"] = [ci_flag(r) for r in board.itertuples()]
# every rubric's (Sottana's tasks) and every rater's runs together, their columns beside the run
together = [c for c, several in (("rubric_id", several_rubrics), ("rater_id", several_raters)) if several]
if together:
    board = board.sort_values(together, kind="stable")
shown = ["system_id"]
if several_rubrics:
    shown += ["rubric_id"]
if several_raters:
    shown += ["rater_id"]
shown += ["ready of N", "score_0_10", "n_replies_scored"]
if has_intervals:
    shown += ["score_ci_low", "score_ci_high", "CI flag", "rank_band", "tie group"]
shown += zero_cols
if not several_raters:
    shown += ["rater_id"]
shown += ["rater_kind"]
if has_intervals:
    shown += ["rank_range", "rank_reason"]
shown += ["n_stale_scores"]
table = board[shown].rename(columns={
    "system_id": "model run", "rubric_id": "rubric", "rater_id": "rater", "rater_kind": "rater kind",
    "score_0_10": "score 0-10", "n_replies_scored": "n", "score_ci_low": "95% CI low", "score_ci_high": "95% CI high",
    "rank_band": "rank band", "rank_range": "rank range", "n_stale_scores": "stale scores",
    "rank_reason": "not ranked because"})
st.caption(f"Suite **{sel['suite']}**, rubric version **{sel['rubric_version']}**. Score 0-10 = mean total of the "
           "**n** complete replies / maximum total x 10; \"<criterion> 0\" = replies with that criterion at its "
           "minimum (blank: the rater scored none of the run's replies on it); \"<criterion> worst\" = replies at "
           "the maximum of a lower-is-better criterion (a count of errors, a fault flag), which counts as max + min - "
           "score in the total; \"ready of N\" is blank when the rubric has no ready rule.")
ac.show_table(table, column_config={
    "score 0-10": st.column_config.NumberColumn(format="%.2f"),
    "95% CI low": st.column_config.NumberColumn(format="%.2f"),
    "95% CI high": st.column_config.NumberColumn(format="%.2f"),
}, key="lb_table")

if has_intervals:
    min_n = board.get("min_replies_for_interval", pd.Series(dtype="float64")).dropna()
    min_n = int(min_n.iloc[0]) if not min_n.empty else None
    st.caption("95% CI: percentile bootstrap over replies (2,000 resamples). Runs whose intervals overlap, directly "
               "or through a chain, form a **tie group** and share its **rank band** (positions first-last) instead "
               "of a bare 1..N order; **rank range** = 1 + runs clearly better .. N - runs clearly worse. "
               + (f"A run with fewer than {min_n} complete replies (dbt var `min_replies_for_interval`) is not "
                  "ranked: its interval is flagged, because a bootstrap over so few replies is far too narrow. "
                  if min_n else "")
               + "A run with fewer than 2 scored replies has no interval. Ranks compare runs of one rater only.")
    plot = interval_chart_data(board)
    if not plot.empty:
        # A Vega-Lite spec as a dict (no altair import on the first page: it costs ~1 s of start-up).
        data = plot.to_dict("records")
        y = {"field": "label", "type": "nominal", "title": None, "axis": {"labelLimit": 320},
             "sort": {"field": "score_0_10", "order": "descending"}}
        st.vega_lite_chart({
            "data": {"values": data}, "height": 34 * len(plot) + 40,
            "layer": [
                {"mark": "rule", "encoding": {
                    "y": y, "x": {"field": "score_ci_low", "type": "quantitative", "title": "score 0-10 with 95% CI",
                                  "scale": {"zero": False}},
                    "x2": {"field": "score_ci_high"}}},
                {"mark": {"type": "point", "filled": True, "size": 70}, "encoding": {
                    "y": y, "x": {"field": "score_0_10", "type": "quantitative"},
                    "color": {"field": "tie_group", "type": "nominal", "title": "tie group"},
                    "tooltip": [{"field": f} for f in ("system_id", "n_replies_scored", "score_0_10", "score_ci_low",
                                                       "score_ci_high", "rank_band")]}},
            ]}, width="stretch")

# Tokens, latency and cost of every run of the suite (fct_model_run_costs; measured runs only).
costs = _mart(sig, "fct_model_run_costs") if appdata.has("fct_model_run_costs") else None
if costs is not None:
    costs = costs[(costs["suite"] == sel["suite"]) & (costs["n_with_latency"] + costs["n_with_tokens"]
                                                      + costs["n_with_cost"] > 0)]
    if not costs.empty:
        st.subheader("Tokens, latency and cost per run")
        ac.show_table(costs[["system_id", "n_responses", "ready_share", "mean_latency_ms", "p95_latency_ms",
                             "total_tokens", "total_cost", "cost_currency", "cost_per_ready_reply"]].rename(columns={
            "system_id": "model run", "n_responses": "replies", "ready_share": "ready share",
            "mean_latency_ms": "mean latency ms", "p95_latency_ms": "p95 latency ms", "total_tokens": "tokens",
            "total_cost": "cost", "cost_currency": "currency", "cost_per_ready_reply": "cost per ready reply"}),
            key="lb_costs")
        st.caption("From the responses' own measurements (imported tool logs). Ready share: replies every pass/fail "
                   "rating marks ready. Empty cells: not recorded (the reason is in fct_model_run_costs).")

# Composites with intervals from other suites' marts (each one found is shown; none found -> no section).
for m in _interval_marts(sig):
    df = _mart(sig, m["table"])
    if df.empty:
        continue
    st.subheader(f"{m['table']}: {m['estimate']} with 95% CI")
    for g in m["group_cols"]:
        values = sorted(df[g].dropna().unique().tolist(), key=str)
        if len(values) > 1:
            v = st.selectbox(g, values, key=f"lb_{m['table']}_{m['estimate']}_{g}")
            df = df[df[g] == v]
    df = df.reset_index(drop=True)
    ranked = add_rank_bands(df, m["id"], m["estimate"], m["low"], m["high"], group_cols=m["group_cols"] or None)
    ranked = ranked.sort_values([m["estimate"]], ascending=False, kind="stable")
    keep = [m["id"], *[g for g in m["group_cols"] if g in ranked], m["estimate"], m["low"], m["high"],
            "rank_band", "rank_range", "tie_group"]
    ac.show_table(ranked[keep].rename(columns={"rank_band": "rank band", "rank_range": "rank range",
                                               "tie_group": "tie group"}), key=f"lb_{m['table']}_{m['estimate']}")
