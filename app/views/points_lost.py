"""Where points are lost: criterion x model run heat map (replies at the worst level, mean points lost, both
direction-adjusted so red is bad for every criterion); click a cell to list its replies, each linked to the reply
drill-down."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402

st.title("Where points are lost")
sig = ac.guard()


@st.cache_data(show_spinner=False, max_entries=64)
def _heat(sig, suite, version, rater):
    return appdata.heatmap_data(suite, version, rater)


@st.cache_data(show_spinner=False, max_entries=256)
def _cell(sig, suite, version, rater, system_id, criterion, rubric_id):
    return appdata.replies_for_cell(suite, version, rater, system_id, criterion, rubric_id)


sel = ac.pick_slice(sig, "pl", with_kind=False, rater_required=True)
heat = _heat(sig, sel["suite"], sel["rubric_version"], sel["rater_id"])
if heat.empty:
    st.info("No criterion scores in this slice.")
    st.stop()

# Both measures are on the direction-adjusted scale (points): a lower-is-better criterion (a count of errors, a fault
# flag) loses points at its maximum, so a red cell is bad whatever the criterion's direction.
METRICS = {"replies at the worst level": "n_at_worst", "mean points lost": "mean_points_lost"}
metric_label = st.radio("Colour by", list(METRICS), horizontal=True, key="pl_metric")
metric = METRICS[metric_label]
criteria = heat.drop_duplicates("criterion").sort_values("criterion_order")["criterion"].tolist()
heat = ac.heatmap_frame(heat)
runs = sorted(heat["run"].unique())
chart = ac.heatmap_chart(heat, metric, metric_label, criteria, runs)
lower_criteria = heat.loc[heat["direction"] == "lower", "criterion"].drop_duplicates().tolist()
event = st.altair_chart(chart, width="stretch", on_select="rerun", selection_mode="cell", key="pl_chart")

st.caption("Red is bad for every criterion: cells count replies at the criterion's worst level, or the mean points "
           "lost (max score - direction-adjusted score; 0 = every reply at its best)."
           + (f" Lower is better for {', '.join(lower_criteria)}: its worst level is its maximum, and a "
              "lower-is-better criterion counts as max + min - score in totals." if lower_criteria else ""))

# The clicked cell, else the selectors (they also work without a pointer, and in tests).
clicked = None
try:
    points = event.selection.get("cell") or []
    if points:
        clicked = (points[0]["run"], points[0]["criterion"])
except (AttributeError, KeyError, TypeError):
    clicked = None
worst = heat.sort_values([metric, "criterion_order"], ascending=[False, True], na_position="last").iloc[0]
c1, c2 = st.columns(2)
default_run = clicked[0] if clicked else worst["run"]
default_crit = clicked[1] if clicked else worst["criterion"]
run = c1.selectbox("Model run", runs, index=runs.index(default_run), key=f"pl_run_{clicked}")
criterion = c2.selectbox("Criterion", criteria, index=criteria.index(default_crit), key=f"pl_crit_{clicked}")

cells = heat[(heat["run"] == run) & (heat["criterion"] == criterion)]
if cells.empty:
    st.info(f"{run} has no {criterion} criterion in its rubric.")
    st.stop()
cell = cells.iloc[0]
system_id, rubric_id = cell["system_id"], cell["rubric_id"]
st.subheader(f"{run} · {criterion}")
lower = cell["direction"] == "lower"
if int(cell["n_scored"]) == 0:
    st.caption(f"{sel['rater_id']} scored none of this run's replies on {criterion}.")
elif lower:
    st.caption(f"{criterion} is lower-is-better (a higher score counts errors or flags a fault): "
               f"{int(cell['n_at_worst'])} of {int(cell['n_scored'])} scored replies at the worst level (the "
               f"maximum); mean score {cell['mean_score']:.2f}, mean points lost {cell['mean_points_lost']:.2f}. "
               "Worst (highest) scores first; open a reply for its text, checks and every rating.")
else:
    st.caption(f"{int(cell['n_at_worst'])} of {int(cell['n_scored'])} scored replies at the minimum; mean score "
               f"{cell['mean_score']:.2f}, mean points lost {cell['mean_points_lost']:.2f}. Lowest scores first; "
               "open a reply for its text, checks and every rating.")
replies = _cell(sig, sel["suite"], sel["rubric_version"], sel["rater_id"], system_id, criterion, rubric_id).copy()
replies["open"] = "./reply?response_id=" + replies["response_id"]
ac.show_table(replies[["open", "item_id", "score", "reason", "is_stale", "carried_forward", "rated_under_version",
                       "response_id"]],
              column_config={"open": st.column_config.LinkColumn("reply", display_text="open")}, key="pl_replies")
