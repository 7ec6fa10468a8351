"""Shared helpers of the app's pages: the warehouse guard, cached reads keyed on the published file, filters.

Every read goes through evalhouse.appdata (short read-only connections on the published copy). Caches are keyed on
``appdata.signature()`` (inode, mtime, size of the published file), so a new `make build` shows on the next rerun.
"""
from __future__ import annotations

import datetime as _dt

import pandas as pd
import streamlit as st

from evalhouse import appdata, paths


def guard() -> tuple:
    """Stop the page with a clear message when there is no published warehouse; return its signature."""
    sig = appdata.signature()
    if sig is None:
        st.error(f"No warehouse yet at `{paths.published_db()}`: run `make build` (dbt build + publish), "
                 "then reload this page.")
        st.stop()
    when = _dt.datetime.fromtimestamp(sig[2] / 1e9).strftime("%Y-%m-%d %H:%M:%S")
    st.sidebar.caption(f"Warehouse published {when} (read-only)")
    return sig


@st.cache_data(show_spinner=False, max_entries=64)
def tables(sig: tuple) -> dict[str, list[str]]:
    return appdata.tables()


@st.cache_data(show_spinner=False, max_entries=64)
def leaderboard_filters(sig: tuple) -> pd.DataFrame:
    return appdata.leaderboard_filters()


DEFAULT_SUITE = "larkfield"


def pick_slice(sig: tuple, key: str, with_kind: bool = True, rater_required: bool = False) -> dict:
    """Suite, rubric version, rater kind and rater selectors (in the sidebar); returns the chosen values.

    The default rubric version is the one with the most rated runs (ties: the latest), so the lesson's full table
    shows first; a rubric version that re-scored only some replies is one pick away.
    """
    f = leaderboard_filters(sig)
    if f.empty:
        st.info("No ratings in the warehouse yet: import ratings (`evalhouse import-ratings`) and run `make build`.")
        st.stop()
    sb = st.sidebar
    # The lesson's suite first (it is the one the leaderboard's columns come from), then the others by name.
    suites = sorted(f["suite"].unique(), key=lambda s: (s != DEFAULT_SUITE, s))
    suite = sb.selectbox("Suite", suites, key=f"{key}_suite")
    fs = f[f["suite"] == suite]
    by_version = fs.groupby("rubric_version")["n_runs"].max().reset_index()
    by_version = by_version.sort_values(["n_runs", "rubric_version"], ascending=[False, False])
    versions = sorted(fs["rubric_version"].unique(), reverse=True)
    default_version = int(by_version.iloc[0]["rubric_version"])
    version = sb.selectbox("Rubric version", versions, index=versions.index(default_version), key=f"{key}_version")
    fv = fs[fs["rubric_version"] == version]
    kind = None
    if with_kind:
        kinds = ["all"] + sorted(fv["rater_kind"].unique())
        kind = sb.selectbox("Rater kind", kinds, key=f"{key}_kind")
        kind = None if kind == "all" else kind
        if kind:
            fv = fv[fv["rater_kind"] == kind]
    raters = sorted(fv["rater_id"].unique())
    if rater_required:
        rater = sb.selectbox("Rater", raters, key=f"{key}_rater")
    else:
        rater = sb.selectbox("Rater", ["all"] + raters, key=f"{key}_rater")
        rater = None if rater == "all" else rater
    return {"suite": suite, "rubric_version": int(version), "rater_kind": kind, "rater_id": rater}


def show_table(df: pd.DataFrame, **kwargs) -> None:
    st.dataframe(df, hide_index=True, **kwargs)
