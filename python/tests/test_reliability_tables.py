"""evalhouse.stats.reliability (the Python models' logic) on small hand-made tables with bad input, and on the USR
dialogue annotations when they are present beside the project (USR has no licence, so it is not shipped: the test
skips cleanly without it)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from evalhouse import paths
from evalhouse.stats import agreement, reliability


def long_table(ratings: dict[str, list], *, criterion="c", scale=(1, 5), systems=None, judge=None, ref=None,
               excluded: dict[str, list] | None = None) -> pd.DataFrame:
    """int_reliability_scores-shaped rows: ratings = {rater_id: [score per unit, NaN = missing]}."""
    n_units = len(next(iter(ratings.values())))
    systems = systems or [f"s{i % 2}" for i in range(n_units)]
    rows = []
    for rater, scores in {**ratings, **(judge or {})}.items():
        for u, v in enumerate(scores):
            if v is None:
                continue
            bad = (excluded or {}).get(rater, [None] * n_units)[u]
            rows.append(dict(
                suite="t", task=None, rubric_id="r", rubric_version=1, criterion=criterion,
                min_score=scale[0], max_score=scale[1], response_id=f"u{u}", item_id=f"i{u}",
                system_id=systems[u], is_reference_system=(systems[u] == ref), response_chars=float(10 * (u + 1)),
                rater_id=rater, rater_kind="judge" if judge and rater in judge else "human",
                score_value=np.nan if bad else v, n_scores=0 if bad else 1, n_excluded=1 if bad else 0,
                excluded_reason=bad))
    return pd.DataFrame(rows)


def test_reliability_table_values_match_stats():
    t = long_table({"a": [1, 2, 3, 4, 5, 2], "b": [1, 2, 3, 5, 5, 1], "c": [2, 2, 3, 4, 4, 2]})
    row = reliability.reliability_table(t).iloc[0]
    m = np.array([[1, 1, 2], [2, 2, 2], [3, 3, 3], [4, 5, 4], [5, 5, 4], [2, 1, 2]], dtype=float)
    assert row["alpha_interval"] == pytest.approx(agreement.krippendorff_alpha(m, "interval").value)
    assert row["icc_1_1"] == pytest.approx(agreement.icc1(m).single.value)
    assert row["fleiss_kappa"] == pytest.approx(agreement.fleiss_kappa(m, [1, 2, 3, 4, 5]).value)
    assert row["n_units_pairable"] == 6 and row["n_raters"] == 3 and row["all_raters_agree_share"] == pytest.approx(2 / 6)  # units 2 and 3


def test_bad_input_gives_null_with_reason_never_crash_or_zero():
    # rater "z" has no usable rating (all excluded: out of scale), unit 3 is rated once, everything else equal
    t = long_table({"a": [3, 3, 3, 3], "b": [3, 3, None, np.nan], "z": [9, 9, 9, 9]},
                   excluded={"z": ["out_of_range"] * 4})
    row = reliability.reliability_table(t).iloc[0]
    assert row["n_raters"] == 2 and row["n_ratings_excluded"] == 4 and row["n_units_pairable"] == 2
    for col in ("alpha_nominal", "alpha_interval", "icc_1_1", "fleiss_kappa", "gwet_ac1", "mean_pairwise_spearman"):
        assert pd.isna(row[col]) and isinstance(row[f"{col}_reason"], str), col
    assert row["exact_agreement"] == 1.0


def test_one_rater_only_is_null_with_reason():
    row = reliability.reliability_table(long_table({"a": [1, 2, 3]})).iloc[0]
    assert pd.isna(row["alpha_nominal"]) and "fewer than two raters" in row["alpha_nominal_reason"]
    assert "fewer than two raters" in row["icc_1_1_reason"]


def test_judge_tables_reference_flag_and_ceiling():
    humans = {"a": [1, 2, 3, 4, 5, 3], "b": [2, 2, 3, 5, 4, 3]}
    judge = {"llm": [2.5, 2.0, 3.5, 4.5, 5.0, 3.0]}
    t = long_table(humans, judge=judge, systems=["ref", "ref", "x", "x", "y", "y"], ref="ref")
    jh = reliability.judge_human_table(reliability.score_cells(t))
    assert set(jh["judge_failure_policy"]) == {"excluded", "as_recorded"}  # the same rows here: no failure codes
    jh = jh[jh["judge_failure_policy"] == "excluded"]
    llm_item = jh[(jh.rater_id == "llm") & (jh.level == "item")].set_index("reference_system_included")
    human_mean = np.array([1.5, 2, 3, 4.5, 4.5, 3])
    assert llm_item.loc[True, "kendall_tau_b"] == pytest.approx(
        agreement.kendall_tau_b(judge["llm"], human_mean).value)
    assert llm_item.loc[False, "n"] == 4
    system = jh[(jh.rater_id == "llm") & (jh.level == "system") & jh.reference_system_included].iloc[0]
    assert system["n"] == 3 and system["pearson_r"] == pytest.approx(
        agreement.pearson_r([2.25, 4.0, 4.0], [1.75, 3.75, 3.75]).value)
    assert set(jh.loc[jh.rater_kind == "human", "comparison"]) == {"human_ceiling"}
    no_ref_system = jh[(jh.level == "system") & ~jh.reference_system_included.astype(bool)]
    assert (no_ref_system["n"] == 2).all()

    diag = reliability.judge_diagnostics_table(reliability.score_cells(t)).iloc[0]
    assert diag["judge_failure_policy"] == "excluded"
    assert diag["mean_bias"] == pytest.approx(np.mean(np.array(judge["llm"]) - human_mean))
    # rounded half up: judge 3,2,4,5,5,3 vs human mean 2,2,3,5,5,3 -> 4 of 6 match
    assert diag["same_level_share"] == pytest.approx(4 / 6)
    assert diag["judge_length_spearman"] == pytest.approx(
        agreement.spearman_rho(judge["llm"], [10, 20, 30, 40, 50, 60]).value)

    alphas = reliability.coder_set_alpha_table(t)
    assert list(alphas["coder_set"]) == ["humans", "humans + judge"]
    assert alphas["n_coders"].tolist() == [2, 3] and alphas["n_systems"].tolist() == [3, 3]


# ------------------------------------------------------------------------------------------- USR (not shipped)

def _usr_dir() -> Path:
    env = os.environ.get("EVALHOUSE_USR_DIR")
    return Path(env) if env else paths.project_dir().parent / "shared" / "data" / "usr_dialog"


# USR paper (Mehri & Eskenazi, ACL 2020), inter-annotator agreement = mean pairwise Spearman between the 3 raters.
USR_PAPER = {
    "usr_topical_chat": {"Understandable": 0.5102, "Natural": 0.4871, "Maintains Context": 0.5599,
                         "Engaging": 0.5811, "Uses Knowledge": 0.7090, "Overall": 0.7183},
    "usr_percona_chat": {"Understandable": 0.2984, "Natural": 0.4842, "Maintains Context": 0.6125},
}
USR_SCALES = {"Understandable": (0, 1), "Natural": (1, 3), "Maintains Context": (1, 3), "Engaging": (1, 3),
              "Uses Knowledge": (0, 1), "Overall": (1, 5)}


@pytest.mark.parametrize("name", sorted(USR_PAPER))
def test_usr_reliability_reproduces_the_paper(name):
    path = _usr_dir() / f"{name}.json"
    if not path.is_file():
        pytest.skip(f"{path} not present (USR carries no licence and is not shipped; set EVALHOUSE_USR_DIR)")
    contexts = json.loads(path.read_text(encoding="utf-8"))
    frames = []
    for criterion, scale in USR_SCALES.items():
        # rater POSITIONS (0 is always the first author; 1-2 are different people per context)
        ratings = {f"position_{p}": [r[criterion][p] for c in contexts for r in c["responses"]] for p in range(3)}
        systems = [r["model"] for c in contexts for r in c["responses"]]
        frames.append(long_table(ratings, criterion=criterion, scale=scale, systems=systems,
                                 ref="Original Ground Truth"))
    table = reliability.reliability_table(pd.concat(frames, ignore_index=True)).set_index("criterion")
    n_responses = {"usr_topical_chat": 360, "usr_percona_chat": 300}[name]
    assert (table["n_units_pairable"] == n_responses).all() and (table["n_ratings_used"] == 3 * n_responses).all()
    for criterion, expected in USR_PAPER[name].items():
        assert round(table.loc[criterion, "mean_pairwise_spearman"], 4) == expected
    for criterion in USR_SCALES:
        assert table.loc[criterion, "alpha_interval"] is not None and not pd.isna(table.loc[criterion, "icc_1_1"])
    binary = table[table["is_binary"]]
    assert set(binary.index) == {"Understandable", "Uses Knowledge"} and binary["gwet_ac1"].notna().all()


def test_categorical_input_from_duckdb_gives_the_same_tables():
    import duckdb

    humans = {"a": [1, 2, 3, 4, 5, 3], "b": [2, 2, 3, 5, 4, 3]}
    t = long_table(humans, judge={"llm": [2.5, 2.0, 3.5, 4.5, 5.0, 3.0]}, systems=["ref", "ref", "x", "x", "y", "y"],
                   ref="ref")
    con = duckdb.connect()
    con.register("t", t)
    cat = reliability.frame_from_relation(con.sql("select * from t"))
    assert isinstance(cat["rater_id"].dtype, pd.CategoricalDtype)
    for fn in (reliability.reliability_table, reliability.coder_set_alpha_table):
        pd.testing.assert_frame_equal(fn(cat), fn(t), check_dtype=True)
    for fn in (reliability.judge_human_table, reliability.judge_diagnostics_table, reliability.system_rankings_table):
        pd.testing.assert_frame_equal(fn(reliability.score_cells(cat)), fn(reliability.score_cells(t)),
                                      check_dtype=True)


def test_with_direction_labels_each_row_from_its_rubric():
    table = pd.DataFrame({"suite": ["s", "s", "s", "t"], "judge_failure_policy": ["excluded"] * 4,
                          "rubric_id": ["g", "g", "g", "g"], "rubric_version": pd.array([1, 1, 2, 1], dtype="Int32"),
                          "criterion": ["errors", "meaning", "errors", "errors"], "mean_bias": [0.5, -0.2, 0.1, 0.0]})
    criteria = pd.DataFrame({"suite": ["s", "s", "s"], "rubric_id": ["g", "g", "g"], "rubric_version": [1, 1, 2],
                             "criterion": ["errors", "meaning", "errors"], "direction": ["lower", "higher", "higher"]})
    out = reliability.with_direction(table, criteria)
    assert list(out.columns) == ["suite", "judge_failure_policy", "rubric_id", "rubric_version", "criterion",
                                 "direction", "mean_bias"]
    # matched on suite x rubric x version x criterion; suite t has no rubric row: higher (int_rubric_criteria's default)
    assert out["direction"].tolist() == ["lower", "higher", "higher", "higher"]
    assert out["mean_bias"].tolist() == table["mean_bias"].tolist()


def test_equal_system_means_tie_whatever_order_the_rows_come_in():
    # the same seven scores per system in two orders: summed in row order they differ in the last bit
    # (0.34285714285714286 vs 0.3428571428571428), so an unrounded ranking would put one system ahead
    a = [2 / 3, 1 / 3, 0.7, 0.2, 0.3, 0.1, 0.1]
    b = [0.3, 0.1, 1 / 3, 0.7, 2 / 3, 0.2, 0.1]
    assert sum(a) / 7 != sum(b) / 7
    t = long_table({"h": a + b}, scale=(0, 1), systems=["s0"] * 7 + ["s1"] * 7)
    out = reliability.system_rankings_table(reliability.score_cells(t))
    human = out[out["ranker"] == "h"].set_index("system_id")
    assert human.loc["s0", "mean_score"] == human.loc["s1", "mean_score"] == pytest.approx(2.4 / 7)
    assert human["system_rank"].tolist() == [1.5, 1.5]


def test_pattern_statistics_do_not_depend_on_the_stored_row_order():
    """fct_interrater_reliability and fct_coder_set_alpha from the same unit patterns stored in two row orders are
    equal to the last bit (reliability_patterns.read_groups sorts the patterns totally), so a suite recomputed alone
    by an incremental build gives the rows a full build gives. On the bundled SOTTANA ratings (three annotators and
    GPT-4, 8 criteria) the two orders differed in the last bits of ICC, agreement, Fleiss' kappa and Gwet's AC1
    before."""
    import duckdb

    from evalhouse.stats import reliability_patterns

    suite = paths.project_dir() / "suites" / "sottana"
    con = duckdb.connect()
    scores = con.sql(f"""
        select 'sottana' as suite, 'summarization' as task, r.rubric_id, r.rubric_version, r.criterion,
               1 as min_score, 5 as max_score, r.response_id, p.item_id, p.system_id, p.is_reference_system,
               length(p.response_text) as response_chars, r.rater_id, r.rater_kind,
               try_cast(r.score as double) as score_value, 1 as n_scores, 0 as n_excluded,
               cast(null as varchar) as excluded_reason
        from '{suite / "ratings.parquet"}' as r
        inner join '{suite / "responses.parquet"}' as p on p.response_id = r.response_id""").df()
    patterns, _typed, _con = reliability_patterns.pattern_relation(scores)
    table = patterns.arrow()
    con.register("p", table.read_all() if hasattr(table, "read_all") else table)
    for name in ("forward", "backward"):  # two fixed shuffles of the rows
        con.execute(f"create table {name} as select * from p "
                    f"order by hash(cast(human_scores as varchar) || system_id || '{name}')")
    assert con.sql("select count(*) from forward").fetchone()[0] > 1000
    for fn in (lambda rel: reliability.reliability_table(patterns=rel),
               lambda rel: reliability.coder_set_alpha_table(scores, patterns=rel)):
        first, second = fn(con.sql("select * from forward")), fn(con.sql("select * from backward"))
        assert len(first) >= 8 and first.equals(second), first.compare(second)
