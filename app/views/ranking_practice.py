"""Ranking practice (Larkfield's explorer): put four replies in order, best first, then reveal the models and
the rubric scores; the status line counts the pairs in the same order as the rubric."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402
from evalhouse.stats.ranking import pair_agreement  # noqa: E402

st.title("Ranking practice")
sig = ac.guard()

if "fct_larkfield_ranking_practice" not in ac.tables(sig):
    st.info("The practice needs the Larkfield suite (mart fct_larkfield_ranking_practice); it is not built here.")
    st.stop()


@st.cache_data(show_spinner=False, max_entries=8)
def _practice(sig):
    return appdata.read("select * from fct_larkfield_ranking_practice order by ticket_id, panel_letter")


df = _practice(sig)
tickets = df["ticket_id"].unique().tolist()
st.caption("Real replies to three tickets, in a fixed order with the model names hidden. Move each reply up or down, "
           "best first, then reveal the models and the rubric scores.")
ticket = st.selectbox("Ticket", tickets, key="rp_ticket")
part = df[df["ticket_id"] == ticket].set_index("panel_letter")
letters = part.index.tolist()
okey, rkey = f"rp_order_{ticket}", f"rp_revealed_{ticket}"
if okey not in st.session_state or sorted(st.session_state[okey]) != sorted(letters):
    st.session_state[okey] = list(letters)
    st.session_state[rkey] = False
order = st.session_state[okey]


def _move(i: int, step: int) -> None:
    o = st.session_state[okey]
    j = i + step
    if 0 <= j < len(o):
        o[i], o[j] = o[j], o[i]


first = part.iloc[0]
st.markdown(f"**{ticket}** · `{first['language']}`")
st.text(first["ticket_text"] or "")
st.markdown("**Your order, best first: " + ", ".join(order) + "**")
for i, letter in enumerate(order):
    row = part.loc[letter]
    with st.container(border=True):
        c0, c1, c2 = st.columns([1, 1, 14])
        c0.button("↑", key=f"rp_up_{ticket}_{letter}", on_click=_move, args=(i, -1), disabled=i == 0)
        c1.button("↓", key=f"rp_down_{ticket}_{letter}", on_click=_move, args=(i, 1), disabled=i == len(order) - 1)
        head = f"{i + 1}. Reply {letter}"
        if st.session_state[rkey]:
            head += f" · {row['system_id']} · total {row['total']} · {'ready' if row['ready'] else 'not ready'}"
        c2.markdown(f"**{head}**")
        c2.text(row["reply_text"] if isinstance(row["reply_text"], str)
                else "(Larkfield's source does not print this reply)")

buttons = st.container(horizontal=True)  # each button as wide as its label
if buttons.button("Reveal models and scores", key=f"rp_reveal_{ticket}", type="primary"):
    st.session_state[rkey] = True
    st.rerun()
if buttons.button("Start again", key=f"rp_reset_{ticket}"):
    st.session_state[okey] = list(letters)
    st.session_state[rkey] = False
    st.rerun()

if st.session_state[rkey]:
    result = pair_agreement(order, {k: part.loc[k, "total"] for k in letters})
    st.success(result.status_line())
    shown = part.loc[order].reset_index()
    ac.show_table(shown[["panel_letter", "system_id", "correctness", "completeness", "format_compliance",
                         "appropriate_abstention", "total", "ready", "reason"]]
                  .rename(columns={"panel_letter": "reply"}), key="rp_scores")
