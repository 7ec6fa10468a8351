"""Blind scoring: one ticket, its replies under letters only, the rubric anchors beside the scores. Each reply's scores
are saved as a new file in the append-only ratings store; the model names appear only once every reply is saved.

A rater's saved scores, the save form and the reveal open only with that rater's token (evalhouse.ratings.blind_access):
a name typed in the page or the URL is not enough."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datetime as dt  # noqa: E402

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse import paths  # noqa: E402
from evalhouse.app import data as appdata  # noqa: E402
from evalhouse.ratings import blind_access, blind_app, rounds  # noqa: E402
from evalhouse.ratings.blind import ExportError  # noqa: E402

st.title("Blind scoring")
sig = ac.guard()

# Rater and packet live in the URL too, so a reload (or a second tab with the same link) comes back to them.
qp = st.query_params
rater = st.text_input("Your rater name", value=qp.get("rater", ""), max_chars=60, key="bs_rater",
                      help="Saved with every score; use the same name each time.").strip()
if rater and qp.get("rater") != rater:
    qp["rater"] = rater

with st.expander("Make new blind packets from the warehouse"):
    suites = appdata.read("select distinct suite from dim_responses order by 1")["suite"].tolist()
    e_suite = st.selectbox("Suite", suites, key="bs_new_suite")
    e_items = st.multiselect("Tickets (none = all)", appdata.read(
        "select distinct item_id from dim_responses where suite = ? and response_text is not null order by 1",
        [e_suite])["item_id"].tolist(), key="bs_new_items")
    e_seed = st.number_input("Seed of the letter order", min_value=0, value=42, step=1, key="bs_new_seed")
    e_id = st.text_input("Export id", value=f"{e_suite}-{dt.datetime.now(dt.UTC):%Y%m%dT%H%M%SZ}",
                         key="bs_new_id")
    if st.button("Create packets", key="bs_new_go"):
        try:
            summary = blind_app.new_export(e_suite, int(e_seed), e_id.strip(), items=e_items)
            st.success(f"Exported {summary['packets']} packets ({summary['replies']} replies); key kept in "
                       f"{Path(summary['key_file']).name}.")
        except ExportError as exc:
            st.error(str(exc))

# Packets of a rating round are shown only to their rater, on the Round scoring page.
round_ids = {r["round_id"] for r in rounds.list_rounds()}
packets = [p for p in blind_app.list_packets() if p["export_id"] not in round_ids]
if not packets:
    st.info("No blind packets yet: make some above (or with `evalhouse blind-export`).")
    st.stop()
ids = [p["packet_id"] for p in packets]
pre = qp.get("packet")
packet_id = st.selectbox("Packet", ids, index=ids.index(pre) if pre in ids else 0, key="bs_packet",
                         format_func=lambda i: f"{i} ({next(p['n_replies'] for p in packets if p['packet_id'] == i)} "
                                               "replies)")
if qp.get("packet") != packet_id:
    qp["packet"] = packet_id
packet = blind_app.load_packet(packet_id)

st.subheader(f"Ticket {packet.item_id}")
st.markdown(f"Language `{packet.language}` · rubric `{packet.rubric_id}` v{packet.rubric_version}")
st.text(packet.item_text or "(no text)")
st.markdown(f"**Answer key:** {packet.answer_key or '(none)'}")
with st.expander("Rubric anchors", expanded=False):
    grid = pd.DataFrame([{"criterion": c["criterion"], **{f"{lv}": c["anchors"].get(lv, "")
                                                         for lv in range(c["max"], c["min"] - 1, -1)}}
                         for c in packet.criteria])
    ac.show_table(grid, key="bs_anchors")

if not rater:
    st.warning("Enter your rater name to score this packet.")
    st.stop()

# The rater's token: the name alone opens nothing (the token never goes into the URL).
if not blind_access.has_token(rater):
    if blind_app.rater_has_ratings(rater):
        st.warning(f"{rater} has ratings in the store but no token yet: ask the evaluation lead for one "
                   f"(`evalhouse blind-token {rater}`).")
        st.stop()
    st.info(f"First visit as **{rater}**: get your personal token. You need it to come back to your scores; it is "
            "shown once, only its hash is kept.")
    if st.button(f"Get my token as {rater}", key="bs_issue"):
        try:
            st.session_state["bs_token"] = blind_access.issue(rater)
            st.session_state["bs_new_token"] = st.session_state["bs_token"]
            st.rerun()
        except blind_access.TokenExists as exc:
            st.error(str(exc))
    st.stop()
token = st.text_input("Your token", type="password", key="bs_token",
                      help="The token you got on your first visit (or from the evaluation lead).")
if not blind_access.verify(rater, token):
    if token:
        st.error(f"This is not {rater}'s token.")
    st.info(f"Enter {rater}'s token to see and save scores. Lost it? The evaluation lead can reissue it "
            f"(`evalhouse blind-token {rater} --reissue`).")
    st.stop()
new_token = st.session_state.get("bs_new_token")
if new_token:
    st.success(f"Your token: `{new_token}` (keep it somewhere safe; it is not shown again after this session).")

saved = blind_app.saved_scores(packet, rater)
for letter in packet.letters:
    with st.container(border=True, key=f"bs_reply_{letter}"):
        left, right = st.columns([1, 1])
        left.markdown(f"### Reply {letter}")
        text = packet.replies.get(letter)
        left.text(text if text else "(no text)")
        if letter in saved:
            s = saved[letter]
            right.success("Saved: " + ", ".join(f"{c['criterion']} {s['scores'].get(c['criterion'], '-')}"
                                                 for c in packet.criteria))
            right.caption(f"Reason: {s['reason']}")
            continue
        with right.form(f"bs_form_{letter}", border=False):
            scores = {}
            for c in packet.criteria:
                levels = list(range(c["max"], c["min"] - 1, -1))
                scores[c["criterion"]] = st.radio(
                    c["criterion"], levels, index=None, horizontal=False, key=f"bs_{letter}_{c['criterion']}",
                    captions=[c["anchors"].get(lv, "") for lv in levels])
            reason = st.text_input("One-line reason", max_chars=300, key=f"bs_{letter}_reason")
            if st.form_submit_button(f"Save reply {letter}", key=f"bs_save_{letter}", type="primary"):
                try:
                    target = blind_app.save_reply(packet, letter, rater, scores, reason)
                    st.success(f"Saved reply {letter} to {target.name}")
                    st.rerun()
                except blind_app.SaveRefused as exc:
                    st.error(str(exc))

saved = blind_app.saved_scores(packet, rater)
st.divider()
if blind_app.is_submitted(packet, saved):
    st.subheader("Packet submitted: the models")
    names = blind_app.reveal(packet)
    ac.show_table(pd.DataFrame([{"letter": k, "model run": v,
                                 **{c["criterion"]: saved[k]["scores"].get(c["criterion"]) for c in packet.criteria},
                                 "reason": saved[k]["reason"]} for k, v in names.items()]), key="bs_reveal")
    st.caption(f"Saved in the ratings store ({paths.ratings_store() / packet.suite}); run `make build` to see these "
               "scores in the leaderboard and the marts.")
else:
    done = sum(1 for letter in packet.letters if letter in saved)
    st.info(f"{done} of {len(packet.letters)} replies saved. The model names appear once every reply is saved.")
