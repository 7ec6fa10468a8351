"""evalhouse.stats.pairwise: values computed by hand or by a reference library, and the edge cases."""
from __future__ import annotations

import math

import numpy as np
import pytest

from evalhouse.stats import pairwise as pw


def test_win_rate_by_hand():
    # q = 1, 1, 0.5, 0, 0.75: mean 3.25/5 = 0.65; sd(n-1): deviations .35 .35 -.15 -.65 .1 -> ss = .7
    r = pw.win_rate([1, 1, 0.5, 0, 0.75])
    assert r.win_rate == pytest.approx(0.65)
    assert r.standard_error == pytest.approx(math.sqrt(0.7 / 4) / math.sqrt(5))
    assert (r.wins, r.losses, r.draws, r.n) == (3, 1, 1, 5)
    assert r.discrete_win_rate == pytest.approx((3 + 0.5) / 5)
    assert r.low == pytest.approx(0.65 - pw.Z95 * r.standard_error)
    assert r.high == pytest.approx(min(1.0, 0.65 + pw.Z95 * r.standard_error))


def test_win_rate_edges():
    assert pw.win_rate([]).win_rate is None and pw.win_rate([]).reason == "no comparisons"
    one = pw.win_rate([1.0])
    assert one.win_rate == 1.0 and one.standard_error is None and "one comparison" in one.reason
    allwin = pw.win_rate([1.0, 1.0, 1.0])
    assert (allwin.win_rate, allwin.standard_error, allwin.low, allwin.high) == (1.0, 0.0, 1.0, 1.0)
    with pytest.raises(ValueError, match="outside"):
        pw.win_rate([0.2, 1.5])


def test_bradley_terry_three_systems_hand_and_choix():
    # Strengths 4 : 2 : 1 and counts exactly proportional to them: A beats B 2 of 3, B beats C 2 of 3, A beats C 4 of 5.
    # The score equations (wins = expected wins) hold at pi = (4, 2, 1): A: 2 + 4 = 3 * 2/3 + 5 * 4/5; so the MLE is
    # r = log(4, 2, 1) centred: (log 2, 0, -log 2).
    # (a, b, p = P(b better)): p = 0 means a won
    comps = ([("A", "B", 0.0)] * 2 + [("A", "B", 1.0)]          # A won twice, B once
             + [("B", "C", 0.0)] * 2 + [("B", "C", 1.0)]
             + [("A", "C", 0.0)] * 4 + [("A", "C", 1.0)])
    got = {r.system: r.rating for r in pw.bradley_terry(comps)}
    assert got["A"] == pytest.approx(math.log(2), abs=1e-6)
    assert got["B"] == pytest.approx(0.0, abs=1e-6)
    assert got["C"] == pytest.approx(-math.log(2), abs=1e-6)
    import choix

    data = [(0, 1)] * 2 + [(1, 0)] + [(1, 2)] * 2 + [(2, 1)] + [(0, 2)] * 4 + [(2, 0)]
    ref = choix.opt_pairwise(3, data, alpha=0.0)  # a different algorithm of the library (Newton-CG on the likelihood)
    assert [got["A"], got["B"], got["C"]] == pytest.approx(list(ref - ref.mean()), abs=1e-5)
    # P(A beats C) from the ratings is 4/5
    assert 1 / (1 + math.exp(got["C"] - got["A"])) == pytest.approx(0.8, abs=1e-6)


def test_bradley_terry_ties_count_half_and_undefined_cases():
    # a tie between X and Y and one win each way: symmetric -> equal ratings
    r = {x.system: x.rating for x in pw.bradley_terry([("X", "Y", 0.5), ("X", "Y", 1.0), ("X", "Y", 0.0)])}
    assert r["X"] == pytest.approx(0.0, abs=1e-9) and r["Y"] == pytest.approx(0.0, abs=1e-9)
    never_lost = pw.bradley_terry([("X", "Y", 1.0), ("X", "Y", 1.0)])
    assert all(x.rating is None and "not strongly connected" in x.reason for x in never_lost)
    with pytest.raises(ValueError, match="itself"):
        pw.bradley_terry([("X", "X", 1.0)])


def test_bradley_terry_bootstrap_interval_contains_estimate():
    rng = np.random.default_rng(1)
    comps = []
    for item in range(60):
        for a, b, p_true in (("A", "B", 0.3), ("B", "C", 0.4), ("A", "C", 0.2)):
            comps.append((item, a, b, float(rng.random() < p_true)))
    fit = pw.bradley_terry_bootstrap(comps, n_boot=100, seed=0)
    for r in fit:
        assert r.low <= r.rating <= r.high and r.n_boot_used >= 20
    again = pw.bradley_terry_bootstrap(comps, n_boot=100, seed=0)
    assert [(r.low, r.high) for r in again] == [(r.low, r.high) for r in fit]


def test_length_controlled_fit_equals_sklearn_unpenalised():
    """Our soft-label GLM equals scikit-learn's unpenalised logistic regression on AlpacaEval's duplicated rows."""
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(3)
    n = 300
    ls, lb = rng.integers(100, 3000, n).astype(float), rng.integers(100, 3000, n).astype(float)
    d = rng.normal(0, 1, n)
    z = -1.2 * np.tanh((lb - ls) / np.std(lb - ls, ddof=1)) + 0.8 * d - 0.3
    p = np.clip(1 / (1 + np.exp(-z)) + rng.normal(0, 0.05, n), 0, 1)
    ours = pw.length_controlled_win_rate(p, ls, lb, d)
    x = np.column_stack([np.tanh((lb - ls) / np.std(lb - ls, ddof=1)), d, np.ones(n)])
    # glm_winrate.fit_LogisticRegressionCV: every row twice, label 1 with weight p and label 0 with weight 1 - p
    model = LogisticRegression(C=np.inf, fit_intercept=False, tol=1e-10, max_iter=10000)
    model.fit(np.vstack([x, x]), np.r_[np.ones(n), np.zeros(n)], sample_weight=np.r_[p, 1 - p])
    w = model.coef_[0]
    assert [ours.coef_length, ours.coef_difficulty, ours.coef_bias] == pytest.approx(list(w), abs=1e-4)
    lc = float(np.mean(1 / (1 + np.exp(-(w[1] * d + w[2])))))
    assert ours.value == pytest.approx(lc, abs=1e-5)
    assert ours.inputs == "length+difficulty"
    only_len = pw.length_controlled_win_rate(p, ls, lb)
    assert only_len.inputs == "length only" and only_len.coef_difficulty is None
    assert only_len.value == pytest.approx(1 / (1 + math.exp(-only_len.coef_bias)))


def test_length_controlled_undefined():
    assert "fewer than 20" in pw.length_controlled_win_rate([0.5] * 5, [1] * 5, [2] * 5).reason
    same = pw.length_controlled_win_rate([0.3, 0.7] * 15, [10] * 30, [12] * 30)
    assert same.value is None and "no variation" in same.reason
    certain = pw.length_controlled_win_rate([1.0] * 30, list(range(30)), [5] * 30)
    assert certain.value is None and "certain" in certain.reason


def test_slot_longer_and_flip_by_hand():
    # A shown first: q = p; B shown first: q = 1 - p.  p = .8 (a), .8 (b), .5 (a) -> q = .8, .2, .5 -> 0.5
    second, first = pw.slot_preference([0.8, 0.8, 0.5], ["a", "b", "a"])
    assert second.value == pytest.approx(0.5) and first.value == pytest.approx(0.5) and second.n == 3
    assert first.low == pytest.approx(1 - second.high)
    second, _ = pw.slot_preference([1.0, 0.0, 1.0, None], ["a", "b", None, "a"])
    assert second.value == 1.0 and second.n == 2
    # longer: B longer & p .9 -> .9; A longer & p .2 -> .8; equal lengths left out
    lp = pw.longer_preference([0.9, 0.2, 0.7], [10, 30, 5], [20, 10, 5])
    assert lp.value == pytest.approx(0.85) and lp.n == 2
    # flips: (b, b) consistent, (b, a) flip, (tie, b) flip, (a, a) consistent
    fr = pw.flip_rate([(0.9, 0.8), (0.9, 0.1), (0.5, 0.7), (0.2, 0.3)])
    assert (fr.flips, fr.pairs, fr.value) == (2, 4, 0.5)
    assert pw.flip_rate([]).value is None
