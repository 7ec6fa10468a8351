"""evalhouse.stats.ranking (rank bands, pair agreement), evalhouse.stats.bootstrap.bootstrap_mean_ci and
evalhouse.app.leaderboard: hand-checked."""
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalhouse.app.leaderboard import (
    add_rank_bands,
    ci_flag,
    criterion_label,
    find_id_column,
    find_interval_columns,
    group_labels,
    interval_chart_data,
    is_worst_column,
    leaderboard_table,
    run_score_intervals,
)
from evalhouse.stats.bootstrap import bootstrap_mean_ci, bootstrap_mean_ci_counts
from evalhouse.stats.ranking import pair_agreement, rank_bands


def _by_id(ranked):
    return {r.id: r for r in ranked}


def test_rank_bands_overlap_chain_and_separation():
    # A [8,10] overlaps B [7,9]; B overlaps C [6.5,7.5]; A does not overlap C -> one chained group of three.
    # D [1,3] is clearly below all of them -> its own group and rank.
    r = _by_id(rank_bands([("A", 9, 8, 10), ("B", 8, 7, 9), ("C", 7, 6.5, 7.5), ("D", 2, 1, 3)]))
    assert [r[k].position for k in "ABCD"] == [1, 2, 3, 4]
    assert [r[k].tie_group for k in "ABCD"] == [1, 1, 1, 2]
    assert [r[k].band for k in "ABCD"] == ["1-3", "1-3", "1-3", "4"]
    # Rank range: A: nobody clearly better (1), C and D clearly worse? C [6.5,7.5] high 7.5 < A low 8 -> yes, D yes.
    assert (r["A"].rank_best, r["A"].rank_worst) == (1, 2)
    assert (r["B"].rank_best, r["B"].rank_worst) == (1, 3)  # only D clearly worse
    assert (r["C"].rank_best, r["C"].rank_worst) == (2, 3)  # A clearly better, D clearly worse
    assert (r["D"].rank_best, r["D"].rank_worst) == (4, 4)


def test_rank_bands_touching_intervals_overlap_and_disjoint_do_not():
    r = _by_id(rank_bands([("A", 5, 4, 6), ("B", 3, 2, 4)]))  # touch at 4: closed intervals overlap
    assert r["A"].tie_group == r["B"].tie_group == 1 and r["A"].band == "1-2"
    r = _by_id(rank_bands([("A", 5, 4.01, 6), ("B", 3, 2, 4)]))
    assert (r["A"].tie_group, r["B"].tie_group, r["A"].band, r["B"].band) == (1, 2, "1", "2")


def test_rank_bands_lower_is_better():
    # Error rates: lower is better. A [0.1,0.2] is best; B [0.15,0.3] overlaps A; C [0.5,0.6] alone.
    r = _by_id(rank_bands([("C", 0.55, 0.5, 0.6), ("A", 0.15, 0.1, 0.2), ("B", 0.2, 0.15, 0.3)],
                          higher_is_better=False))
    assert [r[k].position for k in "ABC"] == [1, 2, 3]
    assert [r[k].band for k in "ABC"] == ["1-2", "1-2", "3"]
    assert (r["C"].rank_best, r["C"].rank_worst) == (3, 3)


def test_rank_bands_missing_values_and_errors():
    out = rank_bands([("A", 9, 8, 10), ("B", 7, None, None), ("C", None, 1, 2), ("D", 6, float("nan"), 7)])
    r = _by_id(out)
    assert out[-1].id == "C" and r["C"].position is None and r["C"].reason == "no estimate"
    assert r["B"].position == 2 and r["B"].tie_group is None and r["B"].reason == "no interval"
    assert r["D"].band is None
    assert r["A"].band == "1" and (r["A"].rank_best, r["A"].rank_worst) == (1, 1)  # N counts banded runs only
    with pytest.raises(ValueError, match="run 'X'"):
        rank_bands([("X", 1, 2, 1)])
    assert rank_bands([]) == []


def test_rank_bands_equal_estimates_ordered_by_id():
    r = rank_bands([("b", 10, 10, 10), ("a", 10, 10, 10), ("c", 10, 10, 10)])
    assert [x.id for x in r] == ["a", "b", "c"] and {x.band for x in r} == {"1-3"}


def test_pair_agreement_lesson_s07():
    # S07 totals (seed 000): A 5, B 8, C 2, D 8. Larkfield's starting order A, B, C, D:
    # AB no, AC yes, AD no, BC yes, BD tie (not counted), CD no -> 2 of 5, 1 tie.
    scores = {"A": 5, "B": 8, "C": 2, "D": 8}
    res = pair_agreement(["A", "B", "C", "D"], scores)
    assert (res.same, res.compared, res.rubric_ties) == (2, 5, 1)
    assert res.status_line().startswith("2 of 5 pairs in the same order as the rubric")
    assert pair_agreement(["B", "D", "A", "C"], scores).same == 5
    assert pair_agreement(["C", "A", "D", "B"], scores).same == 0
    with pytest.raises(ValueError):
        pair_agreement(["A", "A"], scores)
    with pytest.raises(ValueError):
        pair_agreement(["A", "Z"], scores)
    assert pair_agreement(["A", "B"], {"A": None, "B": 1}) .compared == 0


def test_bootstrap_mean_ci_edge_cases_and_reference():
    assert bootstrap_mean_ci([]).reason == "no values"
    one = bootstrap_mean_ci([7.0, None])
    assert one.value == 7.0 and one.low is None and one.n == 1 and "fewer than 2" in one.reason
    same = bootstrap_mean_ci([10.0, 10.0, 10.0])
    assert (same.low, same.high) == (10.0, 10.0)
    x = np.random.default_rng(1).normal(5, 2, size=400)
    res = bootstrap_mean_ci(x, n_boot=4000, seed=3)
    assert res.value == pytest.approx(x.mean())
    assert res == bootstrap_mean_ci(x, n_boot=4000, seed=3)  # reproducible
    ref = sps.bootstrap((x,), np.mean, n_resamples=4000, method="percentile", confidence_level=0.95,
                        rng=np.random.default_rng(3)).confidence_interval
    # Same method, different random draws: agree to Monte-Carlo error (~0.02 here).
    assert res.low == pytest.approx(ref.low, abs=0.03) and res.high == pytest.approx(ref.high, abs=0.03)
    # Width close to the normal-theory 2 * 1.96 * s / sqrt(n).
    assert res.high - res.low == pytest.approx(2 * 1.96 * x.std(ddof=1) / math.sqrt(len(x)), rel=0.08)
    with pytest.raises(ValueError):
        bootstrap_mean_ci([1, 2], level=1.0)
    # Few distinct values (the multinomial path): same distribution as scipy's index resampling.
    totals = np.random.default_rng(2).integers(0, 9, size=3000).astype(float)
    res = bootstrap_mean_ci(totals, n_boot=4000, seed=5)
    ref = sps.bootstrap((totals,), np.mean, n_resamples=4000, method="percentile", confidence_level=0.95,
                        rng=np.random.default_rng(5)).confidence_interval
    assert res.low == pytest.approx(ref.low, abs=0.02) and res.high == pytest.approx(ref.high, abs=0.02)


def test_bootstrap_mean_ci_float_array_equals_the_list_of_its_values():
    # a float array skips the per-value missing check: NaNs dropped alike, the same draws, the same interval
    rng = np.random.default_rng(4)
    for x in (rng.integers(0, 9, size=500).astype(float), rng.normal(5, 2, size=1500)):  # multinomial / index path
        x[[3, 70]] = np.nan
        res = bootstrap_mean_ci(x, n_boot=500, seed=7)
        assert res == bootstrap_mean_ci([None if np.isnan(v) else float(v) for v in x], n_boot=500, seed=7)
        assert res.n == len(x) - 2 and res.value == pytest.approx(np.nanmean(x))
    assert bootstrap_mean_ci(np.array([np.nan, np.nan])).reason == "no values"


def test_bootstrap_mean_ci_counts_equals_the_listed_sample():
    rng = np.random.default_rng(8)
    listed = rng.integers(0, 9, size=5000).astype(float) * 10 / 8
    values, counts = np.unique(listed, return_counts=True)
    # the counted rows in another order, one value split over two rows, a row of count 0 and a missing value
    order = rng.permutation(len(values))
    split = counts.copy()
    split[0] -= 1
    values, counts = list(values[order]) + [values[0], 99.0, None], list(split[order]) + [1, 0, 4]
    res = bootstrap_mean_ci_counts(values, counts, n_boot=3000, seed=11)
    ref = bootstrap_mean_ci(listed, n_boot=3000, seed=11)
    assert (res.n, res.low, res.high) == (ref.n, ref.low, ref.high) == (5000, ref.low, ref.high)
    assert res.value == pytest.approx(ref.value, rel=1e-12)
    assert bootstrap_mean_ci_counts([], []).reason == "no values"
    assert bootstrap_mean_ci_counts([3.0, 4.0], [0, 0]).reason == "no values"
    one = bootstrap_mean_ci_counts([3.0, 4.0], [1, 0])
    assert (one.value, one.n, one.low) == (3.0, 1, None) and "fewer than 2" in one.reason
    assert bootstrap_mean_ci_counts([5.0], [3]) == bootstrap_mean_ci([5.0, 5.0, 5.0])
    # more distinct values than the multinomial path takes: the sample listed in ascending order, by index
    many = rng.normal(5, 2, size=1500)
    assert bootstrap_mean_ci_counts(many[::-1], [1] * 1500, n_boot=200, seed=2) == bootstrap_mean_ci(
        np.sort(many), n_boot=200, seed=2)
    for bad in (([1.0], [1, 2]), ([1.0], [-1]), ([1.0], [0.5])):
        with pytest.raises(ValueError):
            bootstrap_mean_ci_counts(*bad)
    with pytest.raises(ValueError):
        bootstrap_mean_ci_counts([1.0, 2.0], [1, 1], level=0)


def test_run_score_intervals_of_counted_replies_equal_the_listed_ones():
    """fct_model_run_score_intervals passes the replies counted by value (n_rows): the same table as listing them."""
    listed = _replies()
    keys = [c for c in listed.columns]
    counted = (listed.fillna({"total": -1}).groupby(keys, dropna=False).size().rename("n_rows").reset_index()
               .replace({"total": {-1: None}}))
    assert len(counted) < len(listed)
    a = run_score_intervals(listed, n_boot=500, min_replies=2).sort_values("system_id").reset_index(drop=True)
    b = run_score_intervals(counted, n_boot=500, min_replies=2).sort_values("system_id").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)


def test_find_interval_columns():
    cols = ["system_id", "pack", "composite", "composite_ci_low", "composite_ci_high", "accuracy", "accuracy_ci95_lower",
            "accuracy_ci95_upper", "ci_low", "ci_high", "score", "orphan_ci_low"]
    found = find_interval_columns(cols)
    assert {"estimate": "composite", "low": "composite_ci_low", "high": "composite_ci_high"} in found
    assert {"estimate": "accuracy", "low": "accuracy_ci95_lower", "high": "accuracy_ci95_upper"} in found
    assert {"estimate": "composite", "low": "ci_low", "high": "ci_high"} in found  # no stem: first known estimate
    assert not any(f["low"] == "orphan_ci_low" for f in found)  # no high column
    assert find_id_column(cols) == "system_id" and find_id_column(["x"]) is None


def _replies():
    rows = []
    for run, totals in {"r1": [8, 8, 6, 8], "r2": [2, 4, 2, 2], "r3": [8]}.items():
        for t in totals:
            rows.append(dict(suite="s", rubric_id="rb", rubric_version=1, rater_id="p", rater_kind="human",
                             system_id=run, score_status="complete", total=t, max_total=8))
    rows.append(dict(suite="s", rubric_id="rb", rubric_version=1, rater_id="p", rater_kind="human", system_id="r2",
                     score_status="incomplete", total=None, max_total=8))
    return pd.DataFrame(rows)


def test_run_score_intervals_and_leaderboard_table():
    iv = run_score_intervals(_replies(), n_boot=500, min_replies=2).set_index("system_id")
    assert iv["is_below_min_replies"].to_dict() == {"r1": False, "r2": False, "r3": True}
    # 30 / 32 x 10 = 9.375 and 10 / 32 x 10 = 3.125, half-up on 2 decimals as fct_model_run_scores.score_0_10
    assert iv.loc["r1", "score_0_10"] == 9.38
    assert iv.loc["r2", "n_replies_scored"] == 4 and iv.loc["r2", "score_0_10"] == 3.13
    assert iv.loc["r1", "score_ci_low"] >= 7.5 and iv.loc["r1", "score_ci_high"] == 10.0
    assert pd.isna(iv.loc["r3", "score_ci_low"]) and "fewer than 2" in iv.loc["r3", "score_ci_reason"]
    runs = pd.DataFrame([dict(suite="s", rubric_id="rb", rubric_version=1, rater_id="p", rater_kind="human",
                              system_id=k, n_replies_rated=n, n_ready=rd, score_0_10=sc, n_stale_scores=0)
                         for k, n, rd, sc in (("r1", 4, 3, 9.38), ("r2", 5, 0, 3.13), ("r3", 1, 1, 10.0))])
    crit = pd.DataFrame([dict(suite="s", rubric_id="rb", rubric_version=1, rater_id="p", rater_kind="human",
                              system_id=k, criterion=c, criterion_order=o, n_at_minimum=z)
                         for k, c, o, z in (("r1", "b", 2, 0), ("r1", "a", 1, 0), ("r2", "a", 1, 3), ("r2", "b", 2, 1),
                                            ("r3", "a", 1, 0), ("r3", "b", 2, 0))])
    board = leaderboard_table(runs, crit, iv.reset_index())
    assert board["system_id"].tolist() == ["r3", "r1", "r2"]
    assert [c for c in board.columns if c.endswith(" 0")] == ["a 0", "b 0"]
    r2 = board.set_index("system_id").loc["r2"]
    assert r2["ready of N"] == "0 of 5" and r2["a 0"] == 3 and r2["rank_band"] == "2" and r2["tie_group"] == 2
    assert board.set_index("system_id").loc["r1", "rank_band"] == "1"
    assert board.set_index("system_id").loc["r3", "rank_band"] is None  # one reply: no interval, no band
    assert board.set_index("system_id").loc["r3", "rank_reason"] == "1 complete reply, fewer than 2 " \
        "(min_replies_for_interval): not ranked"
    assert board.set_index("system_id").loc["r1", "n_replies_scored"] == 4  # n beside the score


def test_runs_below_the_minimum_of_replies_are_flagged_and_not_ranked():
    # r1 [8, 8, 6, 8] and r2 [2, 4, 2, 2]: 4 complete replies each, r3 one; with the default minimum of 5 replies the
    # intervals stay (flagged) and nobody is ranked; with a minimum of 4, r1 and r2 are ranked and r3 is not.
    replies = _replies()
    iv = run_score_intervals(replies, n_boot=500).set_index("system_id")
    assert iv["min_replies_for_interval"].tolist() == [5, 5, 5] and iv["is_below_min_replies"].all()
    assert iv.loc["r1", "score_ci_low"] >= 7.5  # the interval is still there, only flagged
    runs = pd.DataFrame([dict(suite="s", rubric_id="rb", rubric_version=1, rater_id="p", rater_kind="human",
                              system_id=k, n_replies_rated=n, n_replies_scored=c, n_ready=None, score_0_10=sc,
                              n_stale_scores=0)
                         for k, n, c, sc in (("r1", 4, 4, 9.38), ("r2", 5, 4, 3.13), ("r3", 1, 1, 10.0))])
    crit = pd.DataFrame(columns=["criterion", "criterion_order", "n_at_minimum"])
    board = leaderboard_table(runs, crit, iv.reset_index()).set_index("system_id")
    assert board["rank_band"].isna().all() and board["tie_group"].isna().all()
    assert board.loc["r1", "rank_reason"] == "4 complete replies, fewer than 5 (min_replies_for_interval): not ranked"
    assert board["ready of N"].isna().all()  # n_ready NULL (no ready rule): no "0 of N"
    flags = {r.system_id: ci_flag(r) for r in board.reset_index().itertuples()}
    assert flags == {"r1": "n < 5: not ranked", "r2": "n < 5: not ranked", "r3": None}  # r3: no interval at all
    iv4 = run_score_intervals(replies, n_boot=500, min_replies=4)
    board = leaderboard_table(runs, crit, iv4).set_index("system_id")
    assert board.loc["r1", "rank_band"] == "1" and board.loc["r2", "rank_band"] == "2"
    assert pd.isna(board.loc["r3", "rank_band"]) and board.loc["r3", "rank_reason"].startswith("1 complete reply")
    with pytest.raises(ValueError):
        run_score_intervals(replies, min_replies=1)


def test_criteria_never_scored_are_blank_and_labels_are_unique():
    keys = dict(suite="s", rubric_version=1, rater_kind="human")
    runs = pd.DataFrame([dict(keys, rubric_id=rb, rater_id="p", system_id=m, n_replies_rated=9, n_replies_scored=9,
                              n_ready=None, score_0_10=sc, n_stale_scores=0)
                         for rb, m, sc in (("t1", "m", 5.0), ("t2", "m", 7.0), ("t1", "k", 6.0))])
    crit = pd.DataFrame([dict(keys, rubric_id="t1", rater_id="p", system_id="m", criterion="a", criterion_order=1,
                              n_scored=0, n_at_minimum=0),
                         dict(keys, rubric_id="t1", rater_id="p", system_id="k", criterion="a", criterion_order=1,
                              n_scored=9, n_at_minimum=0)])
    iv = pd.DataFrame([dict(keys, rubric_id=rb, rater_id="p", system_id=m, score_ci_low=sc - 1, score_ci_high=sc + 1,
                            is_below_min_replies=False, min_replies_for_interval=5)
                       for rb, m, sc in (("t1", "m", 5.0), ("t2", "m", 7.0), ("t1", "k", 6.0))])
    board = leaderboard_table(runs, crit, iv)
    a0 = board.set_index(["rubric_id", "system_id"])["a 0"]
    assert pd.isna(a0[("t1", "m")]) and a0[("t1", "k")] == 0  # never scored: blank; scored without zeros: 0
    assert pd.isna(a0[("t2", "m")])  # criterion of another rubric
    data = interval_chart_data(board)
    assert sorted(data["label"]) == ["k · t1", "m · t1", "m · t2"]  # run m twice, once per rubric
    assert group_labels(board) == ["t2 · 1", "t1 · 1", "t1 · 1"]


def test_add_rank_bands_ranks_within_groups_only():
    df = pd.DataFrame({"g": ["x", "x", "y", "y"], "m": ["a", "b", "a", "b"], "e": [9, 5, 5, 9],
                       "lo": [8, 4, 4, 8], "hi": [10, 6, 6, 10]})
    out = add_rank_bands(df, "m", "e", "lo", "hi", group_cols=["g"])
    assert out["rank_band"].tolist() == ["1", "2", "2", "1"]


def test_lower_is_better_criteria_count_their_worst_level():
    # a: higher is better (worst = minimum); e: errors counted, lower is better (worst = maximum). The mart's
    # n_at_worst is used, so e's column counts the replies with the most errors, never its error-free "zeros".
    keys = dict(suite="s", rubric_id="rb", rubric_version=1, rater_id="p", rater_kind="human")
    runs = pd.DataFrame([dict(keys, system_id=k, n_replies_rated=4, n_replies_scored=4, n_ready=None, score_0_10=sc,
                              n_stale_scores=0) for k, sc in (("r1", 9.0), ("r2", 4.0))])
    crit = pd.DataFrame([dict(keys, system_id=k, criterion=c, criterion_order=o, direction=d, n_scored=4,
                              n_at_minimum=mn, n_at_worst=w)
                         for k, c, o, d, mn, w in (("r1", "a", 1, "higher", 0, 0), ("r1", "e", 2, "lower", 4, 0),
                                                   ("r2", "a", 1, "higher", 1, 1), ("r2", "e", 2, "lower", 1, 3))])
    board = leaderboard_table(runs, crit).set_index("system_id")
    assert [c for c in board.columns if is_worst_column(c)] == ["a 0", "e worst"]
    assert board.loc["r1", "e worst"] == 0 and board.loc["r2", "e worst"] == 3  # not n_at_minimum (4, 1)
    assert board.loc["r2", "a 0"] == 1
    assert criterion_label("e", "lower") == "e worst" and criterion_label("a") == "a 0"


def test_score_0_10_half_up_and_interval_bounds_rounded_outward():
    from decimal import Decimal

    from evalhouse.app.leaderboard import score_0_10, score_grid_bounds

    assert score_0_10(30, 32) == Decimal("9.38") and score_0_10(10, 32) == Decimal("3.13")  # 9.375, 3.125 half-up
    assert score_0_10(13, 24) == Decimal("5.42")  # 5.41666...
    with pytest.raises(ValueError):
        score_0_10(0, 0)
    # two identical replies of 13 / 24: zero-width [5.4166.., 5.4166..] -> [5.41, 5.42] contains the score 5.42
    assert score_grid_bounds(13 / 24 * 10, 13 / 24 * 10) == (5.41, 5.42)
    assert score_grid_bounds(6.2499999999999, 7.5000000000001) == (6.25, 7.5)  # float noise is not a step
    assert score_grid_bounds(None, float("nan")) == (None, None)
