"""Agreement: two-reader agreement with Cohen's kappa, the word search against human verdicts, and every reliability
or judge-diagnostics mart that exists (shown with a plot when it has a statistic column)."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import altair as alt  # noqa: E402
import app_common as ac  # noqa: E402
import pandas as pd  # noqa: E402
import streamlit as st  # noqa: E402

from evalhouse.app import data as appdata  # noqa: E402

st.title("Agreement")
sig = ac.guard()


@st.cache_data(show_spinner=False, max_entries=64)
def _read(sig, table):
    return appdata.read(f'select * from "{table}"')


@st.cache_data(show_spinner=False, max_entries=16)
def _optional(sig):
    return appdata.agreement_marts()


tables = ac.tables(sig)

st.header("Two readers")
two = _read(sig, "fct_two_reader_agreement") if "fct_two_reader_agreement" in tables else pd.DataFrame()
if two.empty:
    st.info("No two raters have scored the same replies under the same rubric version yet. Blind-score a packet "
            "as a second rater (Blind scoring page), then run `make build`.")
else:
    pairs = two.groupby(["rater_a", "rater_b", "suite", "rubric_version"], as_index=False)["n_shared"].max()
    # the default suite's pairs first (as on the leaderboard), then the others
    pairs = pairs.assign(_other=pairs["suite"] != ac.DEFAULT_SUITE).sort_values(
        ["_other", "suite", "rubric_version", "rater_a", "rater_b"]).drop(columns="_other").reset_index(drop=True)
    labels = [f"{r.rater_a} vs {r.rater_b} · {r.suite} v{r.rubric_version} ({r.n_shared} shared replies)"
              for r in pairs.itertuples()]
    # default: the pair that shares the most replies, in the default suite when it has pairs (the first in the list
    # order on a tie), never merely the first name
    rank = pairs["n_shared"].where(pairs["suite"] == ac.DEFAULT_SUITE, -1) if (
        pairs["suite"] == ac.DEFAULT_SUITE).any() else pairs["n_shared"]
    default = int(rank.to_numpy().argmax())
    choice = st.selectbox("Rater pair", labels, index=default, key="ag_pair")
    p = pairs.iloc[labels.index(choice)]
    part = two[(two["rater_a"] == p["rater_a"]) & (two["rater_b"] == p["rater_b"]) & (two["suite"] == p["suite"])
               & (two["rubric_version"] == p["rubric_version"])].sort_values("measure_order")
    part = part.assign(agree=part["n_agree"].astype(int).astype(str) + " of "
                       + part["n_shared"].astype(int).astype(str))
    ac.show_table(part[["measure", "agree", "exact_agreement", "cohen_kappa", "kappa_linear", "kappa_quadratic",
                        "kappa_reason"]].rename(columns={"cohen_kappa": "Cohen's kappa",
                                                              "kappa_linear": "linear-weighted kappa",
                                                              "kappa_quadratic": "quadratic-weighted kappa"}),
                  column_config={c: st.column_config.NumberColumn(format="%.3f") for c in
                                 ("exact_agreement", "Cohen's kappa", "linear-weighted kappa",
                                  "quadratic-weighted kappa")}, key="ag_two")
    plot = part.melt(id_vars=["measure"], value_vars=["exact_agreement", "cohen_kappa"], var_name="statistic")
    plot = plot.dropna(subset=["value"])
    if not plot.empty:
        st.altair_chart(alt.Chart(plot).mark_bar().encode(
            x=alt.X("value:Q", scale=alt.Scale(domain=[-1, 1])), y=alt.Y("measure:N", sort=part["measure"].tolist()),
            color="statistic:N", yOffset="statistic:N", tooltip=["measure", "statistic", "value"]
        ).properties(height=60 * len(part) + 40), width="stretch")
    st.caption("Exact agreement = share of shared replies with the same score; Cohen's kappa corrects it for chance "
               "over the rubric's full scale (NULL with a reason when undefined, never 0).")

st.header("Word search against a person")
ws = _read(sig, "fct_word_search_vs_human") if "fct_word_search_vs_human" in tables else pd.DataFrame()
if ws.empty:
    st.info("No replies with both a word-search verdict and a human verdict.")
else:
    conf = ws.groupby(["human_verdict", "word_search_verdict"]).size().reset_index(name="replies")
    c1, c2 = st.columns([1, 2])
    c1.markdown("**Replies by verdict**")
    c1.dataframe(conf.pivot_table(index="human_verdict", columns="word_search_verdict", values="replies",
                                  aggfunc="sum", fill_value=0).astype(int)
                 .rename_axis(index="person", columns="word search"), key="ag_conf")
    with c2:
        st.markdown("**Where the word search and a person disagree**")
        ac.show_table(ws[ws["word_search_outcome"] != "agree"][["item_id", "system_id", "rater_id", "human_verdict",
                                                                "word_search_verdict", "word_search_outcome"]],
                      key="ag_ws")

DIRECTION_NOTE = {
    "fct_judge_diagnostics": "judge_mean, human_mean and mean_bias are in score points as rated: on a "
                             "lower-is-better criterion ({lower}) a positive bias means the judge flags more faults "
                             "than people (harsher), not that it is more lenient.",
    "fct_judge_human_agreement": "Correlations do not depend on direction (rater and human mean score the same "
                                 "scale); on a lower-is-better criterion ({lower}) a good automatic metric "
                                 "correlates negatively.",
}

optional = _optional(sig)
# The judge-vs-human marts hold one block of rows per judge-failure policy: show one at a time.
POLICIES = {"excluded": "excluded: failure codes and out-of-range judge values are left out (and counted)",
            "as_recorded": "as_recorded: the released values as they are, failure codes included (as HANNA's authors)"}
with_policy = [t for t in optional if "judge_failure_policy" in tables.get(t, [])]
policy = None
if with_policy:
    st.header("Judges against people")
    policy = st.radio("Judge failures", list(POLICIES), index=0, format_func=POLICIES.get, horizontal=True,
                      key="ag_policy")
    st.caption("Default excluded: a judge's failure code (e.g. HANNA's -1 / 0) is not a judgement on the rubric's "
               "scale; as_recorded reproduces the data authors' published correlations. Applies to "
               + ", ".join(with_policy) + ".")

for table in optional:
    df = _read(sig, table)
    if policy is not None and "judge_failure_policy" in df:
        df = df[df["judge_failure_policy"] == policy].reset_index(drop=True)
    st.header(table)
    if df.empty:
        st.info(f"{table} is empty.")
        continue
    lower = sorted(df.loc[df["direction"] == "lower", "criterion"].unique()) if "direction" in df else []
    if lower and table in DIRECTION_NOTE:
        st.caption(DIRECTION_NOTE[table].format(lower=", ".join(lower)))
    ac.show_table(df, key=f"ag_{table}")
    stat_cols = [c for c in df.columns if any(k in c for k in ("alpha", "kappa", "tau", "icc", "rho", "ac1",
                                                                "pearson", "spearman", "bias"))
                 and pd.api.types.is_numeric_dtype(df[c])]
    label_cols = [c for c in df.columns if ac.is_label_column(df[c])]
    if stat_cols and label_cols:
        stat = st.selectbox("Plot", stat_cols, key=f"ag_{table}_stat")
        label = st.selectbox("by", label_cols, key=f"ag_{table}_label")
        plot = df.dropna(subset=[stat])
        if label == "criterion" and "direction" in plot:  # mark lower-is-better criteria on the axis
            plot = plot.assign(criterion=[ac.criterion_axis_label(c, d)
                                          for c, d in zip(plot["criterion"], plot["direction"])])
        plot = plot.groupby(label, as_index=False)[stat].mean()
        st.altair_chart(alt.Chart(plot).mark_bar().encode(
            x=alt.X(f"{stat}:Q"), y=alt.Y(f"{label}:N", sort="-x"), tooltip=[label, stat]
        ).properties(height=24 * len(plot) + 40), width="stretch")
