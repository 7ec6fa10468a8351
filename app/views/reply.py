"""Reply drill-down: the ticket, its answer key, the reply as sent, the first-filter checks, every rating with its
reason, rater kind and rubric version (stale ones marked), and the anchors of each level."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402

st.title("Reply drill-down")
sig = ac.guard()


@st.cache_data(show_spinner=False, max_entries=16)
def _choices(sig):
    return appdata.response_choices()


@st.cache_data(show_spinner=False, max_entries=256)
def _detail(sig, response_id):
    return appdata.reply_detail(response_id)


choices = _choices(sig)
if choices.empty:
    st.info("No replies in the warehouse.")
    st.stop()
wanted = st.query_params.get("response_id")
pre = choices[choices["response_id"] == wanted]
if pre.empty:  # no reply asked for: the default suite's first reply, as the other pages open on that suite
    pre = choices[choices["suite"] == ac.DEFAULT_SUITE]
pre = pre.iloc[0] if not pre.empty else choices.iloc[0]

c1, c2, c3 = st.columns(3)
suites = sorted(choices["suite"].unique())
suite = c1.selectbox("Suite", suites, index=suites.index(pre["suite"]), key=f"rd_suite_{wanted}")
cs = choices[choices["suite"] == suite]
items = sorted(cs["item_id"].unique())
item = c2.selectbox("Ticket / item", items, index=items.index(pre["item_id"]) if pre["item_id"] in items else 0,
                    key=f"rd_item_{wanted}_{suite}")
ci = cs[cs["item_id"] == item]
labels = [f"{r.system_id} (repetition {r.repetition})" for r in ci.itertuples()]
pre_label = f"{pre['system_id']} (repetition {pre['repetition']})"
run = c3.selectbox("Model run", labels, index=labels.index(pre_label) if pre_label in labels else 0,
                   key=f"rd_run_{wanted}_{suite}_{item}")
response_id = ci.iloc[labels.index(run)]["response_id"]
if st.query_params.get("response_id") != response_id:
    st.query_params["response_id"] = response_id

d = _detail(sig, response_id)
resp = d["response"].iloc[0]
item_row = d["item"].iloc[0] if not d["item"].empty else None
st.caption(f"response `{response_id}`")

left, right = st.columns(2)
with left:
    st.subheader("Ticket")
    if item_row is not None:
        st.markdown(f"**{item_row['item_id']}** · language `{item_row['language']}` · category "
                    f"`{item_row['category']}`")
        st.text(item_row["input_text"] or "(no text)")
        st.subheader("Answer key")
        st.text(item_row["reference_text"] or "(none)")
with right:
    st.subheader("Reply as sent")
    if resp["response_text"] is None or pd.isna(resp["response_text"]):
        st.warning("The reply text was not recorded for this run.")
    else:
        st.code(resp["response_text"], language=None, wrap_lines=True)
    if resp["raw_output"] is not None and not pd.isna(resp["raw_output"]):
        st.caption("Raw output (byte-exact)")
        st.code(resp["raw_output"], language=None, wrap_lines=True)
    else:
        st.caption("Raw output: not recorded.")

st.subheader("First filter")
ff = d["first_filter"]
if ff.empty:
    st.info("No first-filter row for this reply.")
else:
    row = ff.iloc[0].drop(labels=["suite", "response_id", "item_id", "system_id", "repetition"], errors="ignore")
    verdict = row.get("first_filter_verdict")
    st.markdown(f"Verdict: **{verdict}** · word search: **{row.get('word_search_verdict')}**")
    checks = pd.DataFrame({"check": row.index, "value": [("NULL" if pd.isna(v) else str(v)) for v in row.values]})
    half = (len(checks) + 1) // 2
    f1, f2 = st.columns(2)
    with f1:
        ac.show_table(checks.iloc[:half], key="rd_ff")
    with f2:
        ac.show_table(checks.iloc[half:], key="rd_ff2")

st.subheader("Scores")
ac.show_table(d["reply_scores"], key="rd_scores")

st.subheader("Every rating")
ratings = d["ratings"].copy()
stale = d.get("stale", pd.DataFrame())
if not ratings.empty:
    stale_keys = set()
    if stale is not None and not stale.empty:
        stale_keys = {(r.rater_id, r.criterion, int(r.rated_under_version)) for r in stale.itertuples()}
    ratings.insert(0, "stale", [("stale: rubric changed" if (r.rater_id, r.criterion, int(r.rubric_version))
                                 in stale_keys else "") for r in ratings.itertuples()])
    first = ["stale", "rater_id", "rater_kind", "rubric_version", "criterion", "score", "reason", "is_blind",
             "rated_at"]
    ratings = ratings[first + [c for c in ratings.columns if c not in first]]
    ac.show_table(ratings, key="rd_ratings", column_config={
        "stale": st.column_config.TextColumn(width="medium"), "reason": st.column_config.TextColumn(width="large")})
    if stale_keys:
        st.caption("A rating is **stale** when a later rubric version changed its criterion and it has not been "
                   "re-scored under the new version (see below).")
else:
    st.info("No ratings of this reply yet.")
if stale is not None and not stale.empty:
    st.subheader("Stale ratings")
    ac.show_table(stale, key="rd_stale")

st.subheader("Rubric anchors")
anchors = d["anchors"]
for version, part in anchors.groupby("rubric_version", sort=True):
    current = " (current)" if part["is_current_version"].any() else ""
    st.markdown(f"**{part['rubric_id'].iloc[0]} v{version}{current}**")
    grid = part.pivot_table(index=["criterion_order", "criterion"], columns="level", values="anchor",
                            aggfunc="first").sort_index()
    grid = grid[sorted(grid.columns, reverse=True)]
    grid.columns = [f"level {c}" for c in grid.columns]
    ac.show_table(grid.reset_index(level="criterion").reset_index(drop=True), key=f"rd_anchors_{version}")
