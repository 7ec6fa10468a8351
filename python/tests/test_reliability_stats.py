"""Reliability statistics of evalhouse.stats against hand-computed values and reference libraries."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps

from evalhouse.stats import agreement

NAN = float("nan")


# ---------------------------------------------------------------- Krippendorff's alpha

def test_alpha_three_raters_with_missing_is_one():
    # R1 = [1,1,2], R2 = [1,1,NaN], R3 = [NaN,1,2] (raters x units) -> nominal alpha 1.0
    raters = np.array([[1, 1, 2], [1, 1, NAN], [NAN, 1, 2]])
    r = agreement.krippendorff_alpha(raters.T, "nominal")
    assert r.value == 1.0 and r.n == 3 and r.reason is None
    assert agreement.krippendorff_alpha(raters.T, "interval").value == 1.0


def test_alpha_swapped_labels_is_minus_half_never_clipped():
    # two raters, [pass, fail] vs [fail, pass]: D_o = 1, D_e = 8/12 -> alpha = 1 - 3/2 = -0.5 exactly
    units = [["pass", "fail"], ["fail", "pass"]]
    r = agreement.krippendorff_alpha(units, "nominal")
    assert r.value == pytest.approx(-0.5, abs=1e-15)
    assert agreement.krippendorff_alpha(units, "ordinal", labels=["fail", "pass"]).value == pytest.approx(-0.5)


def test_alpha_krippendorff_2011_worked_example():
    # Krippendorff (2011), "Computing Krippendorff's alpha-reliability", 4 coders x 12 units with missing values:
    # nominal 0.743, ordinal 0.815, interval 0.849, ratio 0.797 (the paper's rounded values).
    data = np.array([
        [1, 2, 3, 3, 2, 1, 4, 1, 2, NAN, NAN, NAN],
        [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, NAN, 3],
        [NAN, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, NAN],
        [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, NAN],
    ]).T
    assert round(agreement.krippendorff_alpha(data, "nominal").value, 3) == 0.743
    assert round(agreement.krippendorff_alpha(data, "ordinal").value, 3) == 0.815
    assert round(agreement.krippendorff_alpha(data, "interval").value, 3) == 0.849
    assert round(agreement.krippendorff_alpha(data, "ratio").value, 3) == 0.797
    assert agreement.krippendorff_alpha(data, "nominal").n == 11  # unit 12 was rated once: not pairable


def test_alpha_equals_krippendorff_package_on_random_data():
    import krippendorff

    rng = np.random.default_rng(3)
    checked = 0
    for t in range(200):
        m = rng.integers(1, 6, (int(rng.integers(3, 30)), int(rng.integers(2, 6)))).astype(float)
        if t % 2:
            m += rng.integers(0, 3, m.shape) * 0.5  # fractional judge-like values
        m[rng.random(m.shape) < 0.3] = np.nan
        keep = (~np.isnan(m)).sum(axis=1) >= 2
        for level in ("nominal", "ordinal", "interval", "ratio"):
            ours = agreement.krippendorff_alpha(m, level)
            if ours.value is None:
                continue
            ref = krippendorff.alpha(reliability_data=m[keep].T, level_of_measurement=level)
            assert ours.value == pytest.approx(float(ref), abs=1e-12)
            checked += 1
    assert checked > 700


@pytest.mark.parametrize("ratings, reason", [
    ([[1, 1], [1, 1], [1, 1]], "all pairable ratings are equal"),            # all ratings equal
    ([[1, NAN], [2, NAN], [3, NAN]], "fewer than two raters"),                # a rater with no ratings
    ([[1, NAN], [NAN, 2], [3, NAN]], "no unit has two or more ratings"),      # every unit rated once
    ([[NAN, NAN], [NAN, NAN]], "fewer than two raters"),                      # nothing at all
])
def test_alpha_undefined_is_null_with_reason(ratings, reason):
    r = agreement.krippendorff_alpha(ratings, "nominal")
    assert r.value is None and reason in r.reason


def test_alpha_out_of_scale_value_is_null_with_reason():
    r = agreement.krippendorff_alpha([[1, 2], [9, 2]], "interval", labels=[1, 2, 3, 4, 5])
    assert r.value is None and "not on the scale" in r.reason


def test_alpha_rater_without_ratings_is_dropped_not_fatal():
    with_empty = np.array([[1, 1, NAN], [2, 2, NAN], [1, 2, NAN]])
    assert agreement.krippendorff_alpha(with_empty, "nominal").value == \
        agreement.krippendorff_alpha(with_empty[:, :2], "nominal").value


def test_alpha_rejects_unknown_level():
    with pytest.raises(ValueError):
        agreement.krippendorff_alpha([[1, 2]], "cardinal")


# ---------------------------------------------------------------- Kendall tau-b, Spearman, Pearson

TIES_X = [1, 2, 2, 3, 3, 3, 4, 5, 5, 1]
TIES_Y = [2, 1, 2, 3, 3, 4, 4, 4, 5, 2]


def test_tau_b_equals_scipy_with_ties_both_orders():
    ref_xy = sps.kendalltau(TIES_X, TIES_Y, variant="b").statistic
    ref_yx = sps.kendalltau(TIES_Y, TIES_X, variant="b").statistic
    assert agreement.kendall_tau_b(TIES_X, TIES_Y).value == pytest.approx(ref_xy, abs=1e-15)
    assert agreement.kendall_tau_b(TIES_Y, TIES_X).value == pytest.approx(ref_yx, abs=1e-15)
    assert agreement.kendall_tau_b(TIES_X, TIES_Y).value == pytest.approx(agreement.kendall_tau_b(TIES_Y, TIES_X).value)


def test_tau_b_hand_value():
    # x = [1,2,2,3], y = [1,1,2,2]: 6 pairs; concordant P = 3 ((1,3),(1,4),(2,4)), discordant Q = 0;
    # pairs tied in x: (2,3) -> n1 = 1; tied in y: (1,2),(3,4) -> n2 = 2. tau_b = 3 / sqrt((6 - 1)(6 - 2))
    assert agreement.kendall_tau_b([1, 2, 2, 3], [1, 1, 2, 2]).value == pytest.approx(3 / math.sqrt(20))


def test_correlations_drop_missing_pairs_and_null_when_constant():
    r = agreement.kendall_tau_b([1, 2, NAN, 3, 4], [1, 2, 5, NAN, 3])
    assert r.n == 3 and r.value == pytest.approx(1.0)           # the two pairs with a NaN side are dropped
    c = agreement.spearman_rho([3, 3, 3], [1, 2, 3])
    assert c.value is None and "constant" in c.reason
    assert agreement.pearson_r([1], [2]).value is None
    assert agreement.pearson_r([1, 2, 3, 4], [2, 4, 6, 8.5]).value == pytest.approx(
        sps.pearsonr([1, 2, 3, 4], [2, 4, 6, 8.5]).statistic)
    assert agreement.spearman_rho(TIES_X, TIES_Y).value == pytest.approx(sps.spearmanr(TIES_X, TIES_Y).statistic)


# ---------------------------------------------------------------- weighted Cohen's kappa on the rubric's full scale

R1 = [0, 0, 1, 1, 4, 4, 1, 0]
R2 = [0, 1, 1, 4, 4, 1, 0, 0]


def test_weighted_kappa_uses_full_0_to_4_scale():
    # hand computation, marginals {0: 3/8, 1: 3/8, 4: 2/8} for both raters:
    #   unweighted: p_o = 4/8, p_e = 22/64                 -> 5/21
    #   linear |i-j| on 0..4: D_o = 8/8, D_e = 102/64      -> 1 - 64/102 = 19/51
    #   quadratic (i-j)^2:    D_o = 20/8, D_e = 318/64     -> 1 - 160/318 = 79/159
    scale = [0, 1, 2, 3, 4]
    assert agreement.cohen_kappa(R1, R2, scale).value == pytest.approx(5 / 21)
    assert agreement.cohen_kappa(R1, R2, scale, "linear").value == pytest.approx(19 / 51)
    assert agreement.cohen_kappa(R1, R2, scale, "quadratic").value == pytest.approx(79 / 159)
    # with only the OBSERVED labels [0, 1, 4] as the scale, 4 would sit next to 1: 11/27 and 23/39 -- not ours
    assert agreement.cohen_kappa(R1, R2, [0, 1, 4], "linear").value == pytest.approx(11 / 27)
    assert agreement.cohen_kappa(R1, R2, [0, 1, 4], "quadratic").value == pytest.approx(23 / 39)
    assert agreement.cohen_kappa(R1, R2, scale, "linear").value != pytest.approx(11 / 27)


# ---------------------------------------------------------------- ICC(1,1), ICC(1,k)

SHROUT_FLEISS = np.array([[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]])


def test_icc1_shrout_fleiss_1979_table():
    # Shrout & Fleiss (1979) Table 2 data: BMS = 11.24, WMS = 6.26; ICC(1,1) = .17, ICC(1,4) = .44
    r = agreement.icc1(SHROUT_FLEISS)
    assert r.k == 4 and r.single.n == 6
    assert r.single.value == pytest.approx((11.2417 - 6.2639) / (11.2417 + 3 * 6.2639), abs=1e-4)
    assert round(r.single.value, 2) == 0.17
    assert round(r.average.value, 2) == 0.44


def test_icc1_edge_cases():
    assert agreement.icc1([[3, 3], [3, 3], [3, 3]]).single.value is None            # all ratings equal
    assert "no variance" in agreement.icc1([[3, 3], [3, 3]]).single.reason
    assert agreement.icc1([[1, NAN], [2, NAN]]).single.reason == "fewer than two raters with ratings"
    one_unit = agreement.icc1([[1, 2], [3, NAN]])                                     # one complete unit
    assert one_unit.single.value is None and "two units" in one_unit.single.reason
    # a unit missing a rater is dropped (listwise), the rest is used
    with_gap = np.vstack([SHROUT_FLEISS, [[5, NAN, 3, 4]]])
    assert agreement.icc1(with_gap).single.value == pytest.approx(agreement.icc1(SHROUT_FLEISS).single.value)
    # identical within units but different between: perfect reliability
    assert agreement.icc1([[1, 1], [2, 2], [3, 3]]).single.value == pytest.approx(1.0)


# ---------------------------------------------------------------- Fleiss' kappa, Gwet's AC1, agreement

WIKI_FLEISS = np.array([  # 10 subjects x 5 categories, 14 raters each (Fleiss' kappa article example): 0.210
    [0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
    [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]])


def _ratings_from_counts(counts):
    return np.array([np.repeat(np.arange(1, counts.shape[1] + 1), row) for row in counts], dtype=float)


def test_fleiss_kappa_reference_example():
    ratings = _ratings_from_counts(WIKI_FLEISS)
    r = agreement.fleiss_kappa(ratings, labels=[1, 2, 3, 4, 5])
    assert round(r.value, 3) == 0.210 and r.n == 10
    assert agreement.percent_agreement(ratings).value == pytest.approx(0.378, abs=1e-3)


def test_gwet_ac1_hand_example_binary():
    # two raters, 10 units: 8 agree. p_a = 0.8; pi_1 = 0.8, pi_0 = 0.2; p_e = 2 * 0.8 * 0.2 / (2 - 1) = 0.32
    # AC1 = (0.8 - 0.32) / 0.68 = 12/17; Cohen's kappa on the same data = 0.375 (prevalence paradox)
    a = [1, 1, 1, 0, 1, 1, 0, 1, 1, 1]
    b = [1, 1, 1, 0, 0, 1, 1, 1, 1, 1]
    units = np.column_stack([a, b])
    assert agreement.gwet_ac1(units, labels=[0, 1]).value == pytest.approx(12 / 17)
    assert agreement.cohen_kappa(a, b, [0, 1]).value == pytest.approx(0.375)
    assert agreement.fleiss_kappa(units, [0, 1]).value == pytest.approx(
        (0.8 - 0.68) / (1 - 0.68))  # Fleiss uses pooled marginals: p = 0.8 / 0.2 -> P_e = 0.68


def test_gwet_ac1_three_raters_with_missing():
    # units: (1,1,1), (1,1,NaN), (0,1,1), (0,0,NaN)
    # p_a = mean(1, 1, 1/3, 1) = 5/6 ; pi_1 = mean(1, 1, 2/3, 0) = 2/3 ; p_e = 2 * (2/3)(1/3) = 4/9
    units = np.array([[1, 1, 1], [1, 1, NAN], [0, 1, 1], [0, 0, NAN]])
    assert agreement.gwet_ac1(units, labels=[0, 1]).value == pytest.approx((5 / 6 - 4 / 9) / (1 - 4 / 9))


def test_constant_flag_gives_null_with_reason_not_zero_or_one():
    constant = np.zeros((5, 3))
    for r in (agreement.gwet_ac1(constant, [0, 1]), agreement.fleiss_kappa(constant, [0, 1])):
        assert r.value is None and "one category" in r.reason
    assert agreement.percent_agreement(constant).value == 1.0


def test_kappa_family_out_of_scale_and_once_rated():
    assert "not on the scale" in agreement.fleiss_kappa([[1, 7]], [1, 2, 3]).reason
    assert "not on the scale" in agreement.gwet_ac1([[1, 7]], [1, 2, 3]).reason
    assert agreement.fleiss_kappa([[1, NAN], [NAN, 2]]).reason == "no unit has two or more ratings"
    assert agreement.gwet_ac1([[1, NAN], [NAN, 2]], [1, 2]).reason == "no unit has two or more ratings"


def test_mean_pairwise_spearman():
    m = np.column_stack([[1, 2, 3, 4], [1, 2, 4, 3], [4, 3, 2, 1]])
    expected = np.mean([sps.spearmanr(m[:, 0], m[:, 1]).statistic, sps.spearmanr(m[:, 0], m[:, 2]).statistic,
                        sps.spearmanr(m[:, 1], m[:, 2]).statistic])
    r = agreement.mean_pairwise_spearman(m)
    assert r.value == pytest.approx(expected) and r.n == 3
    assert agreement.mean_pairwise_spearman([[1, 1], [1, 1]]).value is None


# ---------------------------------------------------------------- ranks and rank-based alpha

def test_average_ranks_and_direction():
    assert list(agreement.average_ranks([4.9, 5.0, 4.9, 4.1])) == [2.5, 1.0, 2.5, 4.0]
    assert list(agreement.average_ranks([0.64, 1.0, 0.54, 0.47], higher_is_better=False)) == [3.0, 4.0, 2.0, 1.0]


def test_rank_based_alpha_sottana_gec_semantics():
    # Sottana et al. (2023) data/outputs/potato_aggregated/gec.csv (per-rater system means, SEMANTICS) and
    # krippendorff_alpha_scores.json: without GPT-4 nominal 0.5926, ordinal 0.8778; with GPT-4 0.2188 / 0.3438.
    humans = np.array([[4.91, 4.74, 4.77], [5.0, 4.94, 4.97], [4.95, 4.75, 4.88], [4.89, 4.68, 4.79]])
    gpt4 = np.array([[4.86], [4.37], [4.88], [4.79]])
    assert round(agreement.rank_based_alpha(humans, "nominal").value, 4) == 0.5926
    assert round(agreement.rank_based_alpha(humans, "ordinal").value, 4) == 0.8778
    assert round(agreement.rank_based_alpha(np.hstack([humans, gpt4]), "nominal").value, 4) == 0.2188
    assert round(agreement.rank_based_alpha(np.hstack([humans, gpt4]), "ordinal").value, 4) == 0.3438
    assert agreement.rank_based_alpha([[1.0, 2.0]], "ordinal").reason == "fewer than two systems: nothing to rank"


def test_pearson_and_spearman_equal_scipy_on_random_tied_scores():
    rng = np.random.default_rng(11)
    for _ in range(200):
        n = int(rng.integers(2, 30))
        x, y = rng.integers(0, 5, n).astype(float), rng.normal(size=n).round(1)
        if len(set(x)) == 1 or len(set(y)) == 1:
            continue
        expected_r = sps.pearsonr(x, y).statistic if n >= 3 else np.sign((x[1] - x[0]) * (y[1] - y[0]))
        assert agreement.pearson_r(x, y).value == pytest.approx(expected_r, abs=1e-12)
        assert agreement.spearman_rho(x, y).value == pytest.approx(sps.spearmanr(x, y).statistic, abs=1e-12)


# ---------------------------------------------------------------- the three correlations over many samples at once

def _random_samples(rng, count=400):
    """Random (x, y) samples: tied integer scores, continuous scores, constant sides, NaN pairs, n = 0, 1, 2."""
    samples = []
    for k in range(count):
        n = int(rng.integers(0, 40)) if k % 10 else int(rng.integers(0, 3))
        kind = k % 5
        if kind == 0:
            x, y = rng.integers(0, 4, n).astype(float), rng.integers(0, 3, n).astype(float)
        elif kind == 1:
            x, y = rng.normal(size=n).round(1), rng.normal(size=n)
        elif kind == 2:
            x, y = np.full(n, 2.0), rng.integers(0, 5, n).astype(float)
        elif kind == 3:
            x = rng.integers(0, 5, n).astype(float)
            y = -x if k % 2 else x.copy()
        else:
            x, y = rng.integers(0, 3, n) / 2.0, np.full(n, 1.0)
        if n and k % 3 == 0:
            x[rng.random(n) < 0.2] = NAN
        samples.append((x, y))
    return samples


def test_correlations_many_equal_scipy_and_one_sample_functions_bit_for_bit():
    rng = np.random.default_rng(5)
    samples = _random_samples(rng) + [(rng.integers(0, 5, 3000).astype(float), rng.normal(size=3000).round(2))]
    many = agreement.correlations_many(samples)
    one = {"kendall_tau_b": agreement.kendall_tau_b, "spearman": agreement.spearman_rho,
           "pearson": agreement.pearson_r}
    defined = 0
    for method, fn in one.items():
        for (x, y), got in zip(samples, many[method]):
            expected = fn(x, y)
            assert (got.value, got.n, got.reason) == (expected.value, expected.n, expected.reason)
            if got.value is None:
                continue
            defined += 1
            keep = ~(np.isnan(x) | np.isnan(y))
            ref = {"kendall_tau_b": lambda a, b: sps.kendalltau(a, b, variant="b").statistic,
                   "spearman": lambda a, b: sps.spearmanr(a, b).statistic,
                   "pearson": lambda a, b: sps.pearsonr(a, b).statistic if a.size > 2 else
                   np.sign((a[1] - a[0]) * (b[1] - b[0]))}[method](x[keep], y[keep])
            assert got.value == pytest.approx(float(ref), abs=1e-12)
            if method == "kendall_tau_b":  # exact pair counts through scipy's own expression
                assert got.value == float(sps.kendalltau(x[keep], y[keep], variant="b").statistic)
    assert defined > 500
    reasons = {r.reason for r in many["kendall_tau_b"]}
    assert {"fewer than two complete pairs", "x is constant (all tied): correlation undefined",
            "y is constant (all tied): correlation undefined", None} <= reasons


def test_correlations_many_batches_and_numpy_discordant_fallback(monkeypatch):
    rng = np.random.default_rng(9)
    samples = [s for s in _random_samples(rng, 300) if agreement.kendall_tau_b(*s).value is not None]
    expected = agreement.correlations_many(samples)
    monkeypatch.setattr(agreement, "_BATCH_ELEMENTS", 50)  # many small batches, a sample larger than a batch
    assert agreement.correlations_many(samples) == expected
    lengths = np.array([int((~(np.isnan(x) | np.isnan(y))).sum()) for x, y in samples])
    g = np.repeat(np.arange(len(samples)), lengths)
    xy = [agreement._paired(x, y) for x, y in samples]
    x, y = np.concatenate([a for a, _ in xy]), np.concatenate([b for _, b in xy])
    fast = agreement._tau_b_grouped(g, x, y, lengths)
    slow = agreement._tau_b_grouped(g, x, y, lengths,
                                    discordant=lambda gs, xr, yr, n: agreement._inversions_by_group(yr, gs, n.size))
    assert np.array_equal(fast[0], slow[0])
    assert list(fast[0]) == [r.value for r in expected["kendall_tau_b"]]


def test_correlations_many_rejects_unknown_method():
    with pytest.raises(ValueError, match="unknown correlation"):
        agreement.correlations_many([([1, 2], [1, 2])], methods=["kendall"])


def test_average_ranks_equal_scipy_rankdata_on_random_ties_constants_and_nan():
    rng = np.random.default_rng(3)
    for k in range(300):
        n = int(rng.integers(0, 25))
        a = rng.integers(0, 4, n).astype(float) if k % 3 else rng.normal(size=n).round(1)
        if k % 7 == 0:
            a[:] = 1.5  # constant
        if n and k % 2:
            a[rng.random(n) < 0.2] = NAN
        keep = ~np.isnan(a)
        for higher in (True, False):
            got = agreement.average_ranks(a, higher)
            assert np.array_equal(np.isnan(got), ~keep)
            expected = sps.rankdata(-a[keep] if higher else a[keep], method="average")
            assert np.array_equal(got[keep], expected)  # bit for bit
