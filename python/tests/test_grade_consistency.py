"""GRADE consistency (C4): the methodology's examples and hand-computed values."""

import pytest

from evalhouse.grade.consistency import (
    coefficient_of_variation,
    consistency,
    finding_stability,
    metric_variance,
    ranking_stability,
    token_jaccard,
)


def test_token_jaccard_issue_example_is_4_over_9():
    # {your, refund, will, arrive, within, 30, days} vs {the, refund, arrives, within, 30, days}: 4 shared of 9
    assert token_jaccard("Your refund will arrive within 30 days", "The refund arrives within 30 days") == 4 / 9


def test_token_jaccard_casefolds_and_ignores_punctuation():
    assert token_jaccard("GROSSE Allee!", "große allee") == 1.0
    assert token_jaccard("", "...") is None


def test_identical_five_runs_score_one():
    run = ["October cancellations spiked", "T-007 is an outlier", "November recovered"]
    res = consistency([run] * 5, [{"rate": 11.98, "n": 192.0}] * 5)
    assert res.finding_stability.value == 1.0
    assert res.ranking_stability.value == 1.0 and res.ranking_stability.n == 10  # 10 run pairs
    assert res.metric_variance.value == 1.0
    assert res.consistency == 1.0


@pytest.mark.parametrize("values", [[1, -1], [0, 0, 0]])
def test_cv_with_mean_zero_is_null_not_zero(values):
    cv = coefficient_of_variation(values)
    assert cv.value is None and "mean is 0" in cv.reason


def test_cv_population_sd():
    # [1, 3]: mean 2, population sd 1 -> CV 0.5 ; 1/(1+0.5) = 2/3
    assert coefficient_of_variation([1, 3]).value == 0.5
    assert metric_variance([{"k": 1.0}, {"k": 3.0}]).value == pytest.approx(2 / 3)


def test_metric_variance_leaves_out_mean_zero_keys_with_reason():
    res = metric_variance([{"a": 1.0, "z": 1.0}, {"a": 1.0, "z": -1.0}])
    assert res.value == 1.0 and res.n == 1 and "z" in res.reason
    only_zero = metric_variance([{"z": 0.0}, {"z": 0.0}, {"z": 0.0}])
    assert only_zero.value is None and "mean 0" in only_zero.reason


def test_finding_stability_hand_computed():
    # unique findings: A (runs 1,2,3), B (runs 1,2), C (run 3) over 3 runs -> mean(3/3, 2/3, 1/3) = 2/3
    runs = [["alpha beta gamma", "delta epsilon zeta"],
            ["alpha beta gamma", "delta epsilon zeta"],
            ["alpha beta gamma delta", "omega psi chi"]]  # J(alpha beta gamma, +delta) = 3/4 >= 0.5
    assert finding_stability(runs).value == pytest.approx(2 / 3)


def test_finding_stability_only_top3_counts():
    runs = [["a", "b", "c", "d"], ["a", "b", "c", "e"]]
    res = finding_stability(runs)
    assert res.value == 1.0 and res.n == 3


def test_ranking_stability_reversed_is_zero_and_undefined_is_null():
    assert ranking_stability([["a", "b", "c"], ["c", "b", "a"]]).value == 0.0
    # one swap of three: tau-b = 1/3 -> normalised 2/3
    assert ranking_stability([["a", "b", "c"], ["b", "a", "c"]]).value == pytest.approx(2 / 3)
    res = ranking_stability([["a", "b"], ["x", "y"]])
    assert res.value is None and "shares 2" in res.reason


def test_consistency_reweights_defined_sub_metrics():
    runs = [["a b", "c d"], ["a b", "c d"]]
    res = consistency(runs, [{}, {}])  # no numeric metric -> 0.5 and 0.3 only
    assert res.metric_variance.value is None
    assert res.consistency == 1.0 and res.weights_used == "finding_stability,ranking_stability"
    none = consistency([[], []], [{}, {}])
    assert none.consistency is None and none.reason


def test_vectorised_metric_variance_equals_the_scalar_function():
    import random

    from evalhouse.grade.consistency import metric_variance_by_group

    rng = random.Random(7)
    groups, keys, values, per_group = [], [], [], {}
    for g in range(40):
        runs = [{} for _ in range(5)]
        for k in ["a", "b", "z"]:
            for r in range(5):
                if rng.random() < 0.8:
                    v = 0.0 if k == "z" and g % 3 == 0 else (rng.choice([1.0, -1.0]) if k == "z" else rng.random() * 10)
                    runs[r][k] = v
                    groups.append(g), keys.append(k), values.append(v)
        per_group[g] = runs
    got = metric_variance_by_group(groups, keys, values)
    for g, runs in per_group.items():
        ref = metric_variance(runs)
        assert (got[g].value is None) == (ref.value is None)
        if ref.value is not None:
            assert got[g].value == pytest.approx(ref.value, abs=1e-12) and got[g].n == ref.n
        assert got[g].reason == ref.reason
