"""evalhouse app: start with `make app` or `evalhouse app` (reads the published warehouse read-only)."""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import streamlit as st  # noqa: E402

st.set_page_config(page_title="evalhouse", page_icon=":bar_chart:", layout="wide")

PAGES = [
    st.Page(HERE / "views" / "leaderboard.py", title="Leaderboard", default=True),
    st.Page(HERE / "views" / "points_lost.py", title="Where points are lost", url_path="points_lost"),
    st.Page(HERE / "views" / "reply.py", title="Reply drill-down", url_path="reply"),
    st.Page(HERE / "views" / "agreement.py", title="Agreement", url_path="agreement"),
    st.Page(HERE / "views" / "grade.py", title="GRADE", url_path="grade"),
    st.Page(HERE / "views" / "blind_scoring.py", title="Blind scoring", url_path="blind_scoring"),
    st.Page(HERE / "views" / "round_scoring.py", title="Round scoring", url_path="round_scoring"),
    st.Page(HERE / "views" / "rounds.py", title="Rating rounds", url_path="rounds"),
    st.Page(HERE / "views" / "pairwise_scoring.py", title="Pairwise scoring", url_path="pairwise_scoring"),
    st.Page(HERE / "views" / "ranking_practice.py", title="Ranking practice", url_path="ranking_practice"),
    st.Page(HERE / "views" / "marts.py", title="All marts", url_path="marts"),
]
st.navigation(PAGES).run()
