"""All marts: every fct_/dim_ table in the published warehouse (each suite's marts appear here once built)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402

st.title("All marts")
sig = ac.guard()


@st.cache_data(show_spinner=False, max_entries=8)
def _counts(sig):
    t = [x for x in ac.tables(sig) if x.startswith(("fct_", "dim_"))]
    if not t:
        return pd.DataFrame(columns=["mart", "rows", "columns"])
    sql = " union all ".join(f"select '{x}' as mart, count(*) as rows from \"{x}\"" for x in t)
    df = appdata.read(sql)
    df["columns"] = [len(ac.tables(sig)[x]) for x in df["mart"]]
    return df.sort_values("mart").reset_index(drop=True)


@st.cache_data(show_spinner=False, max_entries=64)
def _head(sig, table, limit):
    return appdata.read(f'select * from "{table}" limit {int(limit)}')


counts = _counts(sig)
ac.show_table(counts, key="mt_counts")
if not counts.empty:
    table = st.selectbox("Show", counts["mart"].tolist(), key="mt_table")
    limit = st.number_input("Rows", min_value=10, max_value=100_000, value=1000, step=100, key="mt_limit")
    ac.show_table(_head(sig, table, limit), key="mt_head")
