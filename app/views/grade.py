"""GRADE: the composite leaderboard with 95% intervals, tie groups and rank bands (fct_grade__composite_intervals),
and the six dimension scores behind each composite (fct_grade__overall_scores)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402

st.title("GRADE")
sig = ac.guard()


@st.cache_data(show_spinner=False, max_entries=16)
def _grade(sig):
    return appdata.grade_leaderboard()


data = _grade(sig)
if not data or data["board"].empty:
    st.info("No GRADE scores in the warehouse: put a pack under data/grade/packs (data/grade/PACK_FORMAT.md), then "
            "run `make build`.")
    st.stop()

board = data["board"].copy()
st.header("Composite leaderboard")
table = board[["system_id", "composite", "composite_ci_low", "composite_ci_high", "rank_band", "tie_group",
               "rank_range", "n_tasks", "rank_reason", "composite_ci_reason"]].rename(columns={
    "system_id": "model", "composite_ci_low": "95% CI low", "composite_ci_high": "95% CI high",
    "rank_band": "rank band",
    "tie_group": "tie group", "rank_range": "rank range", "n_tasks": "tasks", "rank_reason": "not ranked because",
    "composite_ci_reason": "no interval because"})
fmt = st.column_config.NumberColumn(format="%.3f")
ac.show_table(table, column_config={"composite": fmt, "95% CI low": fmt, "95% CI high": fmt}, key="gr_board")
min_tasks = int(board["min_tasks_for_interval"].iloc[0])
n_boot = int(board["n_boot"].iloc[0])
st.caption(f"Composite (0-1) = project-weighted sum of the six dimension scores, each the mean over the model's "
           f"tasks. 95% CI: percentile bootstrap over tasks ({n_boot:,} resamples, seed 0), each resample's composite "
           "computed the same way. Models whose intervals overlap, directly or through a chain, form a **tie group** "
           "and share its **rank band** (positions first-last) instead of a bare 1..N order; **rank range** = 1 + "
           "models clearly better .. N - models clearly worse (the rubric leaderboards' rule). A model with fewer "
           f"than {min_tasks} tasks (dbt var `min_tasks_for_interval`) keeps its interval but is not ranked.")

plot = board[board["composite_ci_low"].notna()].copy()
if not plot.empty:
    plot["tie group"] = ["not ranked" if pd.isna(g) else str(int(g)) for g in plot["tie_group"]]
    plot = plot[["system_id", "n_tasks", "composite", "composite_ci_low", "composite_ci_high", "rank_band",
                 "tie group"]]
    y = {"field": "system_id", "type": "nominal", "title": None, "axis": {"labelLimit": 320},
         "sort": {"field": "composite", "order": "descending"}}
    st.vega_lite_chart({
        "data": {"values": plot.astype({"composite": float, "composite_ci_low": float,
                                        "composite_ci_high": float}).to_dict("records")},
        "height": 34 * len(plot) + 40,
        "layer": [
            {"mark": "rule", "encoding": {
                "y": y, "x": {"field": "composite_ci_low", "type": "quantitative", "title": "composite with 95% CI",
                              "scale": {"zero": False}},
                "x2": {"field": "composite_ci_high"}}},
            {"mark": {"type": "point", "filled": True, "size": 70}, "encoding": {
                "y": y, "x": {"field": "composite", "type": "quantitative"},
                "color": {"field": "tie group", "type": "nominal"},
                "tooltip": [{"field": f} for f in ("system_id", "n_tasks", "composite", "composite_ci_low",
                                                   "composite_ci_high", "rank_band")]}},
        ]}, width="stretch")

st.header("Dimension scores")
dims = data["dimensions"]
cols = ["system_id", "n_tasks", "grounding_accuracy", "insight_quality", "evidence_linkage",
        "calibration_limitation_handling", "consistency", "structure_usability", "composite", "missing_dimensions"]
ac.show_table(dims[[c for c in cols if c in dims]].rename(columns={"system_id": "model"}),
              column_config={c: fmt for c in cols[2:9]}, key="gr_dims")
weights = data.get("weights")
if weights is not None and not weights.empty:
    w = weights.iloc[0]
    st.caption("Project weights: " + ", ".join(f"{c.removeprefix('w_')} {float(w[c]):.2f}"
                                               for c in weights.columns if c.startswith("w_"))
               + ". Each dimension is 0-1, higher is better.")
