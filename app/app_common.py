"""Shared helpers of the app's pages: the warehouse guard, cached reads keyed on the published file, filters.

Every read goes through evalhouse.app.data (short read-only connections on the published copy). Caches are keyed on
``appdata.signature()`` (inode, mtime, size of the published file), so a new `make build` shows on the next rerun.
"""
from __future__ import annotations

import datetime as _dt

import pandas as pd
import streamlit as st

from evalhouse import paths
from evalhouse.app import data as appdata


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

    The default rubric version is the one with the most rated runs (ties: the latest), so Larkfield's full published
    table shows first; a rubric version that re-scored only some replies is one pick away. The default rater is the one
    with the most rated replies in the slice; "all" (every rater side by side) is the last choice.
    """
    f = leaderboard_filters(sig)
    if f.empty:
        st.info("No ratings in the warehouse yet: import ratings (`evalhouse import-ratings`) and run `make build`.")
        st.stop()
    sb = st.sidebar
    # Larkfield first (it is the suite the leaderboard's columns come from), then the others by name.
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
    # Default rater: the one who rated the most replies in this slice (ties: by name), never merely the first name.
    by_rater = fv.groupby("rater_id")["n_replies"].sum().reset_index()
    default_rater = by_rater.sort_values(["n_replies", "rater_id"], ascending=[False, True])["rater_id"].iloc[0]
    options = raters if rater_required else raters + ["all"]
    rater = sb.selectbox("Rater", options, index=options.index(default_rater), key=f"{key}_rater")
    rater = None if rater == "all" else rater
    return {"suite": suite, "rubric_version": int(version), "rater_kind": kind, "rater_id": rater}


MISSING = "—"


def show_table(df: pd.DataFrame, **kwargs) -> None:
    """st.dataframe without the index; a missing value shows as a dash, never the text "None"."""
    kwargs.setdefault("placeholder", MISSING)
    st.dataframe(df, hide_index=True, **kwargs)


LOWER_IS_BETTER = "lower is better"


def criterion_axis_label(criterion: str, direction: str | None) -> str:
    """The heat map's column heading: the criterion, marked when a lower score is better (a count of errors, a
    fault flag), so nobody reads its raw level as a grade."""
    return f"{criterion} ({LOWER_IS_BETTER})" if direction == "lower" else criterion


def heatmap_frame(heat: pd.DataFrame) -> pd.DataFrame:
    """The heat map's cells, with the counts and means missing where the rater scored none of the run's replies on
    the criterion (n_scored = 0): such a cell is blank, not a 0. ``run`` labels a row: the model run, plus its rubric
    when the slice has several (Sottana's runs repeat across its task rubrics, and two tasks share criterion names),
    so two rubrics' cells never land on one square. ``criterion_label`` marks lower-is-better criteria; a frame
    without a ``direction`` column is read as higher-is-better throughout."""
    heat = heat.copy()
    several = "rubric_id" in heat and heat["rubric_id"].nunique() > 1
    heat["run"] = (heat["system_id"] + " · " + heat["rubric_id"]) if several else heat["system_id"]
    if "direction" not in heat:
        heat["direction"] = "higher"
    heat["criterion_label"] = [criterion_axis_label(c, d) for c, d in zip(heat["criterion"], heat["direction"])]
    never = heat["n_scored"] == 0
    for c in ("n_at_minimum", "n_at_worst", "mean_score", "mean_points_lost"):
        if c in heat:
            heat[c] = heat[c].astype(float).where(~never)
    return heat


def heatmap_chart(heat: pd.DataFrame, metric: str, metric_label: str, criteria: list[str], runs: list[str]):
    """Criterion x run heat map (altair), cells selectable. ``metric`` counts or measures what is lost (replies at
    the worst level, mean points lost: both direction-adjusted), so for every criterion red means bad: coloured from
    0 (white) up to at least 1, so a map of zeros stays white; counts get whole-number legend labels. A cell the
    rater never scored is grey and has no number. ``criteria`` are criterion names in display order; the axis
    shows their ``criterion_label``."""
    import altair as alt

    top = max(1.0, float(heat[metric].max()) if heat[metric].notna().any() else 1.0)
    scale = alt.Scale(scheme="reds", domain=[0, top], zero=True)
    counts = metric.startswith("n_")
    legend = (alt.Legend(format="d", tickMinStep=1, title=metric_label) if counts
              else alt.Legend(format=".2f", title=metric_label))
    text_format = "d" if counts else ".2f"
    labels = heat.drop_duplicates("criterion").set_index("criterion")["criterion_label"]
    axis_order = [labels.get(c, c) for c in criteria]
    valid = f"isValid(datum.{metric})"
    pick = alt.selection_point(fields=["run", "criterion"], name="cell")
    base = alt.Chart(heat).encode(
        x=alt.X("criterion_label:N", sort=axis_order, title=None, axis=alt.Axis(labelAngle=0, labelLimit=260)),
        y=alt.Y("run:N", sort=runs, title=None, axis=alt.Axis(labelLimit=320)),
    )
    tooltip = [c for c in ("run", "criterion", "direction", "n_scored", "n_at_worst", "n_at_minimum", "n_at_maximum",
                           "mean_score", "mean_points_lost", "n_stale") if c in heat]
    rect = base.mark_rect(stroke="white").encode(
        color=alt.condition(valid, alt.Color(f"{metric}:Q", scale=scale, legend=legend), alt.value("#eeeeee")),
        tooltip=tooltip,
        opacity=alt.condition(pick, alt.value(1.0), alt.value(0.55)),
    ).add_params(pick)
    text = base.mark_text(fontSize=13).encode(text=alt.Text(f"{metric}:Q", format=text_format)).transform_filter(valid)
    return (rect + text).properties(height=40 * len(runs) + 40)


def is_label_column(col: pd.Series, max_distinct: int = 60) -> bool:
    """A text column with at most ``max_distinct`` values, whatever the dtype that holds the text (object, or the
    string dtype pandas 3 gives text columns by default)."""
    is_text = pd.api.types.is_string_dtype(col.dtype) or (
        col.dtype == object and col.dropna().map(lambda v: isinstance(v, str)).all())
    return bool(is_text) and col.nunique() <= max_distinct
