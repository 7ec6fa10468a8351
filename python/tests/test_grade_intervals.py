"""The GRADE composite leaderboard's bootstrap and tie groups (evalhouse.grade.intervals), on hand-checked examples,
and the built mart against fct_grade__overall_scores."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from evalhouse import paths
from evalhouse.grade.intervals import DIMENSIONS, composite_bootstrap_ci, composite_intervals_table

WEIGHTS = {"grounding_accuracy": 0.35, "insight_quality": 0.20, "evidence_linkage": 0.15,
           "calibration_limitation_handling": 0.15, "consistency": 0.10, "structure_usability": 0.05}


def test_composite_and_interval_by_hand_with_a_null_dimension():
    # weights 0.5 / 0.5; task 1 has no second dimension (NULL): left out of that dimension's mean.
    tasks = [[1.0, 0.0], [0.0, None], [0.5, 1.0]]
    # estimate: dim 1 mean (1 + 0 + 0.5) / 3 = 0.5, dim 2 mean (0 + 1) / 2 = 0.5 -> 0.5 x 0.5 + 0.5 x 0.5 = 0.5
    # seed 0 draws the task indices [2,1,1], [0,0,0], [0,0,0], [2,1,2] (numpy PCG64, integers(0, 3, (4, 3))):
    #   [2,1,1]: dim 1 (0.5 + 0 + 0) / 3 = 1/6, dim 2 (1) / 1 = 1  -> 1/12 + 1/2 = 0.583333
    #   [0,0,0]: dim 1 1, dim 2 0                                  -> 0.5 (twice)
    #   [2,1,2]: dim 1 (0.5 + 0 + 0.5) / 3 = 1/3, dim 2 (1 + 1) / 2 = 1 -> 1/6 + 1/2 = 0.666667
    # sorted 0.5, 0.5, 0.583333, 0.666667; 2.5% quantile at position 0.075 -> 0.5; 97.5% at 2.925 ->
    # 0.583333 + 0.925 x (0.666667 - 0.583333) = 0.660417
    res = composite_bootstrap_ci(tasks, [0.5, 0.5], n_boot=4, seed=0)
    assert res.value == pytest.approx(0.5)
    assert res.low == pytest.approx(0.5) and res.high == pytest.approx(7 / 12 + 0.925 / 12)
    assert res.n == 3 and res.n_boot_used == 4 and res.reason is None


def test_two_tasks_give_the_interval_between_them():
    # Two tasks a = 0.2, b = 0.8: a resample's composite is a (prob. 1/4), (a + b) / 2 (1/2) or b (1/4); with 2,000
    # resamples far more than 2.5% of them are all-a or all-b, so the 95% interval is exactly [a, b].
    res = composite_bootstrap_ci([[0.2] * 6, [0.8] * 6], list(WEIGHTS.values()), seed=0)
    assert res.value == pytest.approx(0.5)
    assert res.low == pytest.approx(0.2) and res.high == pytest.approx(0.8)
    again = composite_bootstrap_ci([[0.2] * 6, [0.8] * 6], list(WEIGHTS.values()), seed=0)
    assert (again.low, again.high) == (res.low, res.high)  # fixed seed: reproducible


def test_edge_cases():
    w = [0.5, 0.5]
    assert composite_bootstrap_ci([], w).reason == "no tasks"
    one = composite_bootstrap_ci([[0.4, 0.6]], w)
    assert one.value == pytest.approx(0.5) and one.low is None and one.reason == "fewer than 2 tasks: no interval"
    same = composite_bootstrap_ci([[0.4, 0.6]] * 3, w)
    assert same.low == pytest.approx(0.5) and same.high == pytest.approx(0.5)  # all equal: [v, v]
    none = composite_bootstrap_ci([[0.4, None], [0.1, math.nan]], w)
    assert none.value is None and none.reason == "no score on any task for dimension(s) [1]"
    # resamples that draw only task 0 have no second dimension: left out of the quantiles and counted
    part = composite_bootstrap_ci([[1.0, None], [0.0, 1.0]], w, n_boot=2000, seed=3)
    drawn = np.random.default_rng(3).integers(0, 2, size=(2000, 2))
    assert part.n_boot_used == 2000 - int((drawn == 0).all(axis=1).sum())
    assert 0 < part.n_boot_used < 2000
    with pytest.raises(ValueError, match="task row 0 has 1"):
        composite_bootstrap_ci([[0.1]], w)
    with pytest.raises(ValueError):
        composite_bootstrap_ci([[0.1, 0.2]], w, level=1.0)


def _tasks(model: str, values: list[float]) -> list[dict]:
    return [{"system_id": model, **{d: v for d in DIMENSIONS}} for v in values]


def test_tie_groups_and_rank_bands_by_hand():
    # Two tasks per model, every dimension equal within a task: the interval is [lower task, higher task] (see above).
    #   A [0.80, 0.90]  B [0.60, 0.85]  C [0.50, 0.55]  D [0.20, 0.30]  E one task: no interval
    # A and B overlap (0.80 <= 0.85): tie group 1, band 1-2; C is below B (0.55 < 0.60): group 2, band 3; D group 3.
    # Rank ranges: A: none above, C and D below -> 1-2; B: 1-2; C: A and B above, D below -> 3; D: 4.
    frame = pd.DataFrame(_tasks("A", [0.9, 0.8]) + _tasks("B", [0.85, 0.6]) + _tasks("C", [0.55, 0.5])
                         + _tasks("D", [0.3, 0.2]) + _tasks("E", [0.99]))
    board = composite_intervals_table(frame, WEIGHTS, min_tasks=2).set_index("system_id")
    assert board.index.tolist() == ["E", "A", "B", "C", "D"]  # best composite first
    assert board.loc["A", "composite_ci_low"] == pytest.approx(0.8) and board.loc["B", "composite_ci_high"] == \
        pytest.approx(0.85)
    ranked = board.loc[["A", "B", "C", "D"]]
    assert ranked["tie_group"].tolist() == [1, 1, 2, 3]
    assert ranked["rank_band"].tolist() == ["1-2", "1-2", "3", "4"]
    assert ranked["rank_range"].tolist() == ["1-2", "1-2", "3", "4"]
    assert ranked["rank_reason"].isna().all()
    e = board.loc["E"]
    assert e["composite"] == pytest.approx(0.99) and pd.isna(e["composite_ci_low"]) and pd.isna(e["tie_group"])
    assert e["is_below_min_tasks"] and e["rank_reason"] == "1 task, fewer than 2 (min_tasks_for_interval): not ranked"
    # with the default minimum of 5 tasks nobody here is ranked; intervals stay
    strict = composite_intervals_table(frame, WEIGHTS).set_index("system_id")
    assert strict["tie_group"].isna().all() and strict.loc["A", "composite_ci_low"] == pytest.approx(0.8)
    assert strict.loc["A", "rank_reason"] == "2 tasks, fewer than 5 (min_tasks_for_interval): not ranked"
    # the tasks are resampled in pack x task order: shuffled rows give the same intervals
    keyed = frame.assign(pack_id="p", task_id=[f"t{i}" for i in range(len(frame))])
    shuffled = keyed.sample(frac=1.0, random_state=7)
    a = composite_intervals_table(keyed, WEIGHTS, min_tasks=2).set_index("system_id")
    b = composite_intervals_table(shuffled, WEIGHTS, min_tasks=2).set_index("system_id")
    pd.testing.assert_frame_equal(a, b.loc[a.index])
    with pytest.raises(ValueError, match="no project weight"):
        composite_intervals_table(frame, {"consistency": 1.0})


@pytest.mark.skipif(not paths.published_db().is_file(), reason="run `make build` first")
def test_mart_matches_the_overall_leaderboard(warehouse):
    rows = warehouse.execute("""
        select i.system_id, i.n_tasks, i.composite, o.composite, i.composite_ci_low, i.composite_ci_high,
               i.tie_group, i.rank_band
        from fct_grade__composite_intervals as i join fct_grade__overall_scores as o using (system_id)
        order by i.composite desc""").fetchall()
    assert [r[0] for r in rows] == ["synthetic-strong", "synthetic-mixed", "synthetic-weak"]
    for _model, n_tasks, composite, overall, low, high, _group, _band in rows:
        assert n_tasks == 10 and composite == overall and low <= composite <= high  # the same DECIMAL(18,12)
    # the bundled example pack's three models are far apart: three tie groups of one
    assert [r[6] for r in rows] == [1, 2, 3] and [r[7] for r in rows] == ["1", "2", "3"]
    strong, mixed, weak = rows
    assert strong[4] > mixed[5] and mixed[4] > weak[5]  # intervals do not overlap
