"""Round scoring: a rater of a rating round sees only the packets assigned to them. Opening a packet locks it to
this browser session for the round's lock time (another tab or browser waits until it is released or expires);
each reply's scores are saved as a new file in the append-only ratings store; the model names appear only once
every reply of the packet is saved, and only to its rater (who needs their token, evalhouse.ratings.blind_access)."""
import sys
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.ratings import blind_access, blind_app, rounds  # noqa: E402

st.title("Round scoring")
sig = ac.guard()
session_id = st.session_state.setdefault("rs_session", uuid.uuid4().hex)

all_rounds = rounds.list_rounds()
if not all_rounds:
    st.info("No rating rounds yet: the evaluation lead creates them (page Rating rounds, or `evalhouse round create`).")
    st.stop()
qp = st.query_params
ids = [r["round_id"] for r in all_rounds]
round_id = st.selectbox("Round", ids, index=ids.index(qp["round"]) if qp.get("round") in ids else len(ids) - 1,
                        key="rs_round")
if qp.get("round") != round_id:
    qp["round"] = round_id
rater = st.text_input("Your rater name", value=qp.get("rater", ""), max_chars=60, key="rs_rater").strip()
if rater and qp.get("rater") != rater:
    qp["rater"] = rater
if not rater:
    st.info("Enter your rater name.")
    st.stop()
if not blind_access.has_token(rater):
    st.warning(f"{rater} has no token yet: get one on the Blind scoring page, or ask the evaluation lead "
               f"(`evalhouse blind-token {rater}`).")
    st.stop()
token = st.text_input("Your token", type="password", key="rs_token")
if not blind_access.verify(rater, token):
    if token:
        st.error(f"This is not {rater}'s token.")
    st.stop()
try:
    mine = rounds.rater_packets(round_id, rater)
except rounds.RoundAccessError as exc:
    st.error(str(exc))
    st.stop()
if not mine:
    st.info(f"No packets of round {round_id} are assigned to you.")
    st.stop()
status = {r["packet_id"]: r for r in rounds.packet_status(round_id) if r["packet_id"] in mine}
done = sum(status[p]["submitted"] for p in mine)
st.caption(f"{done} of {len(mine)} of your packets submitted · due {rounds.load_round(round_id)['due_date']}")
packet_id = st.selectbox("Your packet", mine, key="rs_packet",
                         format_func=lambda p: f"{p} ({status[p]['n_saved']}/{status[p]['n_replies']} saved)")
packet = blind_app.load_packet(packet_id)
saved = blind_app.saved_scores(packet, rater)
submitted = blind_app.is_submitted(packet, saved)
if not submitted:
    try:
        lock = rounds.open_packet(round_id, packet_id, rater, session_id)
    except rounds.PacketLocked as exc:
        st.error(str(exc))
        st.caption("Reloaded the page, or left it open in another window? Take the packet over here: the other "
                   "window can no longer save.")
        if st.button("Take over this packet here", key="rs_take_over"):
            rounds.open_packet(round_id, packet_id, rater, session_id, take_over=True)
            st.rerun()
        st.stop()
    st.caption(f"Open in this session until {lock.expires_at:%H:%M} UTC (reopening renews it).")

st.subheader(f"Ticket {packet.item_id}")
st.markdown(f"Language `{packet.language}` · rubric `{packet.rubric_id}` v{packet.rubric_version}")
st.text(packet.item_text or "(no text)")
st.markdown(f"**Answer key:** {packet.answer_key or '(none)'}")
for letter in packet.letters:
    with st.container(border=True, key=f"rs_reply_{letter}"):
        left, right = st.columns([1, 1])
        left.markdown(f"### Reply {letter}")
        left.text(packet.replies.get(letter) or "(no text)")
        if letter in saved:
            s = saved[letter]
            right.success("Saved: " + ", ".join(f"{c['criterion']} {s['scores'].get(c['criterion'], '-')}"
                                                for c in packet.criteria))
            continue
        with right.form(f"rs_form_{letter}", border=False):
            scores = {}
            for c in packet.criteria:
                levels = list(range(c["max"], c["min"] - 1, -1))
                scores[c["criterion"]] = st.radio(c["criterion"], levels, index=None,
                                                  key=f"rs_{letter}_{c['criterion']}",
                                                  captions=[c["anchors"].get(lv, "") for lv in levels])
            reason = st.text_input("One-line reason", max_chars=300, key=f"rs_{letter}_reason")
            if st.form_submit_button(f"Save reply {letter}", key=f"rs_save_{letter}", type="primary"):
                try:
                    rounds.save_round_reply(round_id, packet_id, letter, rater, session_id, scores, reason)
                    st.rerun()
                except (blind_app.SaveRefused, rounds.PacketLocked, rounds.RoundAccessError) as exc:
                    st.error(str(exc))

st.divider()
if submitted:
    rounds.release_packet(round_id, packet_id, session_id)
    st.subheader("Packet submitted: the models")
    names = blind_app.reveal(packet)
    ac.show_table(pd.DataFrame([{"letter": k, "model run": v,
                                 **{c["criterion"]: saved[k]["scores"].get(c["criterion"]) for c in packet.criteria},
                                 "reason": saved[k]["reason"]} for k, v in names.items()]), key="rs_reveal")
else:
    n = sum(1 for letter in packet.letters if letter in saved)
    st.info(f"{n} of {len(packet.letters)} replies saved. The model names appear once every reply is saved.")
