"""Rating rounds, for the evaluation lead: create a round (who reads which replies), follow its progress live from
the ratings store, reassign a packet (logged), and read the round's progress and agreement marts after `make build`.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datetime as dt  # noqa: E402

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402
from evalhouse.ratings import rounds  # noqa: E402
from evalhouse.warehouse.published import connect_readonly  # noqa: E402

st.title("Rating rounds")
sig = ac.guard()

with st.expander("Create a round", expanded=not rounds.list_rounds()):
    suites = appdata.read("select distinct suite from dim_responses order by 1")["suite"].tolist()
    c_suite = st.selectbox("Suite", suites, index=suites.index("larkfield") if "larkfield" in suites else 0,
                           key="rr_suite")
    versions = appdata.read("select distinct rubric_id, rubric_version from dim_rubric_levels where suite = ? "
                            "order by 1, 2 desc", [c_suite])
    c_rubric = st.selectbox("Rubric and version", [f"{r} v{v}" for r, v in versions.itertuples(index=False)],
                            key="rr_rubric")
    c_id = st.text_input("Round id", value=f"{c_suite}-round-{dt.datetime.now(dt.UTC):%Y%m%d}",
                         key="rr_id")
    c_raters = st.text_input("Raters (comma-separated)", key="rr_raters", placeholder="ana, ben, chloe")
    left, right = st.columns(2)
    c_readers = left.number_input("Readers per reply", min_value=1, value=2, step=1, key="rr_readers")
    c_due = right.date_input("Due date", value=dt.date.today() + dt.timedelta(days=7), key="rr_due")
    c_items = st.multiselect("Only these tickets (none = all)", appdata.read(
        "select distinct item_id from dim_responses where suite = ? and response_text is not null order by 1",
        [c_suite])["item_id"].tolist(), key="rr_items")
    c_sample = left.number_input("Sample this many replies (0 = all in scope)", min_value=0, value=0, step=1,
                                 key="rr_sample")
    c_seed = right.number_input("Seed", min_value=0, value=42, step=1, key="rr_seed")
    c_where = st.text_input("Only replies where (SQL on dim_responses as r; optional)", key="rr_where")
    if st.button("Create the round", key="rr_create", type="primary"):
        rubric_id, version = c_rubric.rsplit(" v", 1) if c_rubric else (None, None)
        try:
            with connect_readonly() as con:
                out = rounds.create_round(
                    con, c_id.strip(), c_suite, [r.strip() for r in c_raters.split(",")], int(c_readers),
                    c_due.isoformat(), rubric_id=rubric_id, rubric_version=int(version) if version else None,
                    items=c_items or None, where=c_where.strip() or None,
                    sample=int(c_sample) or None, seed=int(c_seed))
            st.success(f"Round {out['round_id']}: {out['n_replies']} replies x {out['readers_per_reply']} readers = "
                       f"{out['n_packets']} packets (" + ", ".join(f"{r} {n}" for r, n in out["packets"].items())
                       + ").")
        except rounds.RoundError as exc:
            st.error(str(exc))

all_rounds = rounds.list_rounds()
if not all_rounds:
    st.info("No rounds yet: create one above (or with `evalhouse round create`).")
    st.stop()
ids = [r["round_id"] for r in all_rounds]
round_id = st.selectbox("Round", ids, index=len(ids) - 1, key="rr_round")
rnd = rounds.load_round(round_id)
st.markdown(f"Suite `{rnd['suite']}` · rubric `{rnd['rubric_id']}` v{rnd['rubric_version']} · "
            f"{rnd['n_replies']} replies x {rnd['readers_per_reply']} readers · raters {', '.join(rnd['raters'])} · "
            f"due {rnd['due_date']} · scope {rnd['scope']}")

st.subheader("Progress now (from the ratings store)")
status = pd.DataFrame(rounds.packet_status(round_id))
per_rater = status.groupby("rater_id").agg(packets=("packet_id", "count"), submitted=("submitted", "sum"),
                                           replies=("n_replies", "sum"), saved=("n_saved", "sum")).reset_index()
st.metric("Packets submitted", f"{int(status['submitted'].sum())} of {len(status)}")
ac.show_table(per_rater, key="rr_per_rater")
with st.expander("Every packet"):
    ac.show_table(status, key="rr_packets")

with st.expander("Reassign a packet (logged)"):
    open_packets = status.loc[~status["submitted"], "packet_id"].tolist()
    if not open_packets:
        st.caption("Every packet is submitted.")
    else:
        r_packet = st.selectbox("Packet", open_packets, key="rr_re_packet")
        r_to = st.selectbox("Give it to", rnd["raters"], key="rr_re_to")
        r_reason = st.text_input("Reason", key="rr_re_reason")
        if st.button("Reassign", key="rr_re_go"):
            try:
                e = rounds.reassign(round_id, r_packet, r_to, r_reason)
                st.success(f"Packet {r_packet}: {e['from_rater_id']} -> {e['rater_id']}")
            except rounds.RoundError as exc:
                st.error(str(exc))

st.subheader("After `make build`")
marts = ["dim_rounds", "fct_round_progress", "fct_round_rater_progress", "fct_round_agreement",
         "fct_round_pair_agreement", "fct_round_disagreements"]
if not all(appdata.has(m) for m in marts):
    st.info("The round marts are not in the published warehouse yet: run `make build`.")
    st.stop()
data = appdata.read_many({m: (f"select * from {m} where round_id = ?", [round_id]) for m in marts})
if data["dim_rounds"].empty:
    st.info(f"Round {round_id} is not in the published warehouse yet: run `make build`.")
    st.stop()
row = data["dim_rounds"].iloc[0]
st.metric("Replies complete (last build)", f"{row['n_replies_complete']} of {row['n_replies']}")
st.markdown("**Agreement per measure** (all readers; Krippendorff's alpha allows missing readers)")
ac.show_table(data["fct_round_agreement"].sort_values("measure_order")[
    ["measure", "n_replies_pairable", "n_readers", "exact_agreement", "alpha_nominal", "alpha_ordinal",
     "exact_agreement_reason", "alpha_nominal_reason", "alpha_ordinal_reason"]], key="rr_agreement")
st.markdown("**Pairs of readers** (Cohen's kappa on the replies both read)")
ac.show_table(data["fct_round_pair_agreement"].sort_values(["measure_order", "rater_a", "rater_b"])[
    ["measure", "rater_a", "rater_b", "n_shared", "n_agree", "exact_agreement", "cohen_kappa", "kappa_linear",
     "kappa_quadratic", "kappa_reason"]], key="rr_pairs")
st.markdown("**To adjudicate** (readers disagree; adjudication = a new rating with rater kind adjudicator)")
ac.show_table(data["fct_round_disagreements"].sort_values(["response_id", "measure_order"])[
    ["response_id", "measure", "readings", "is_adjudicated", "adjudication"]], key="rr_disagree")
st.caption(f"`evalhouse round adjudication-template {round_id} adjudicate.csv` writes these replies for the "
           "adjudicator; `evalhouse import-ratings adjudicate.csv --rater NAME --rater-kind adjudicator` adds the "
           "adjudication as new ratings.")
with st.expander("Progress per reply (last build)"):
    ac.show_table(data["fct_round_progress"], key="rr_progress")
