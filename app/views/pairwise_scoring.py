"""Blind pairwise scoring: two answers to one item as "A" and "B" (a random order, recorded), the rater picks A, B or
a tie with a reason; the choice is saved as a new file of the append-only comparisons store and only then are the
model names shown. Rater, suite and pair live in the URL, so a reload comes back to the same pair (already saved:
shown with its reveal, never saved twice)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402
from evalhouse.judge.comparisons import default_comparisons_dir  # noqa: E402
from evalhouse.ratings import pairwise_app  # noqa: E402

st.title("Pairwise scoring")
ac.guard()
qp = st.query_params

rater = st.text_input("Your rater name", value=qp.get("rater", ""), max_chars=60, key="pw_rater",
                      help="Saved with every choice; use the same name each time.").strip()
if rater and qp.get("rater") != rater:
    qp["rater"] = rater

responses = appdata.read(
    "select suite, item_id, response_id, system_id from dim_responses "
    "where response_text is not null and length(trim(response_text)) > 0")
suites = sorted(s for s, g in responses.groupby("suite") if g.groupby("item_id")["system_id"].nunique().max() > 1)
if not suites:
    st.info("No suite has two systems' answers to the same item yet.")
    st.stop()
pre = qp.get("suite")
suite = st.selectbox("Suite", suites, index=suites.index(pre) if pre in suites else 0, key="pw_suite")
if qp.get("suite") != suite:
    qp["suite"] = suite
    qp.pop("pair", None)

if not rater:
    st.warning("Enter your rater name to compare answers.")
    st.stop()

pairs = pairwise_app.pairs_for(responses[responses["suite"] == suite], rater)
by_key = {p.key: p for p in pairs}
pair = by_key.get(qp.get("pair", ""))
if pair is None:
    pair = next((p for p in pairs if pairwise_app.saved_choice(p, rater) is None), None)
    if pair is None:
        st.success(f"You have compared every pair of {suite} ({len(pairs)}). Thank you.")
        st.stop()
    qp["pair"] = pair.key

texts = appdata.read("select response_id, system_id, response_text from dim_responses where suite = ? "
                     "and response_id in (?, ?)", [suite, pair.response_id_a, pair.response_id_b])
text_of = dict(zip(texts["response_id"], texts["response_text"]))
system_of = dict(zip(texts["response_id"], texts["system_id"]))
item = appdata.read("select input_text from dim_items where suite = ? and item_id = ?", [suite, pair.item_id])

st.subheader(f"Item {pair.item_id}")
st.text(item["input_text"].iloc[0] if len(item) and item["input_text"].iloc[0] else "(no text)")
slot_a, slot_b = pair.slots()
left, right = st.columns(2)
with left.container(border=True, key="pw_answer_A"):
    st.markdown("### Answer A")
    st.text(text_of.get(slot_a, ""))
with right.container(border=True, key="pw_answer_B"):
    st.markdown("### Answer B")
    st.text(text_of.get(slot_b, ""))

saved = pairwise_app.saved_choice(pair, rater)
if saved is None:
    with st.form("pw_form", border=True):
        choice = st.radio("Which answer is better?", pairwise_app.CHOICES, index=None, horizontal=True,
                          key="pw_choice", format_func=lambda c: {"A": "A is better", "B": "B is better",
                                                                  "tie": "Tie"}[c])
        reason = st.text_input("One-line reason", max_chars=300, key="pw_reason")
        if st.form_submit_button("Save choice", key="pw_save", type="primary"):
            try:
                target = pairwise_app.save_choice(pair, rater, choice, reason)
                st.toast(f"Saved to {target.name}")
                st.rerun()
            except pairwise_app.SaveRefused as exc:
                st.error(str(exc))
    st.caption("The model names appear after you save your choice.")
else:
    label = saved["preference_label"]
    picked = "Tie" if label == "tie" else (
        "A" if (saved["response_id_b"] if label == "b" else saved["response_id_a"]) == slot_a else "B")
    st.success(f"Saved: {picked if picked == 'Tie' else picked + ' is better'}. Reason: {saved['reason'] or '-'}")
    names = pairwise_app.reveal(pair, system_of)
    st.subheader("The models")
    st.markdown(f"**A** was `{names['A']}` · **B** was `{names['B']}`")
    done = sum(1 for p in pairs if pairwise_app.saved_choice(p, rater) is not None)
    st.caption(f"{done} of {len(pairs)} pairs of {suite} compared. Saved in the comparisons store "
               f"({default_comparisons_dir() / suite}); run `make build` to see them in fct_pairwise_win_rates.")
    if st.button("Next pair", key="pw_next", type="primary"):
        nxt = next((p for p in pairs if pairwise_app.saved_choice(p, rater) is None), None)
        if nxt is None:
            qp.pop("pair", None)
        else:
            qp["pair"] = nxt.key
        st.rerun()
