"""Cohen's kappa and exact agreement against hand-checked values and scikit-learn."""
import math

import pytest
from sklearn.metrics import cohen_kappa_score

from evalhouse.stats.agreement import cohen_kappa, exact_agreement

R1 = [0, 1, 2, 2, 1, 0, 2, 1]
R2 = [0, 1, 2, 1, 1, 0, 2, 2]


def test_kappa_values_from_the_issue():
    assert cohen_kappa(R1, R2, [0, 1, 2]).value == pytest.approx(0.619048, abs=1e-6)
    assert cohen_kappa(R1, R2, [0, 1, 2], "linear").value == pytest.approx(0.703704, abs=1e-6)
    assert cohen_kappa(R1, R2, [0, 1, 2], "quadratic").value == pytest.approx(0.794872, abs=1e-6)


def test_kappa_by_hand():
    # Observed agreement 6/8; marginals r1 (2,3,3)/8, r2 (2,3,3)/8 -> pe = (4+9+9)/64 = 22/64.
    po, pe = 6 / 8, 22 / 64
    assert cohen_kappa(R1, R2, [0, 1, 2]).value == pytest.approx((po - pe) / (1 - pe), abs=1e-12)


def test_weighted_kappa_uses_the_full_scale_not_the_observed_labels():
    a = [0, 0, 1, 1, 2, 2, 1, 0]
    b = [0, 1, 1, 2, 2, 1, 0, 0]
    on_0_2 = cohen_kappa(a, b, [0, 1, 2], "quadratic").value
    on_0_4 = cohen_kappa(a, b, [0, 1, 2, 3, 4], "quadratic").value
    assert on_0_4 == pytest.approx(cohen_kappa_score(a, b, labels=[0, 1, 2, 3, 4], weights="quadratic"))
    assert on_0_2 == pytest.approx(cohen_kappa_score(a, b, weights="quadratic"))


def test_one_category_only_is_null_with_reason():
    res = cohen_kappa([2] * 6, [2] * 6, [0, 1, 2])
    assert res.value is None and "single" in res.reason and res.n == 6
    assert exact_agreement([2] * 6, [2] * 6).value == 1.0


def test_missing_pairs_are_dropped_and_no_units_is_null():
    res = cohen_kappa([0, None, 2, math.nan], [0, 1, 2, 2], [0, 1, 2])
    assert res.n == 2 and res.value == 1.0
    assert cohen_kappa([], [], [0, 1, 2]).value is None
    assert exact_agreement([None], [1]).reason == "no shared units"


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        cohen_kappa([0, 1], [0], [0, 1])
    with pytest.raises(ValueError):
        cohen_kappa([0, 3], [0, 1], [0, 1, 2])
    with pytest.raises(ValueError):
        cohen_kappa([0, 1], [0, 1], [0, 1], "cubic")


@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_equals_scikit_learn_on_random_ratings(weights):
    import numpy as np

    rng = np.random.default_rng(7)
    for _ in range(200):
        n = int(rng.integers(2, 40))
        a = rng.integers(0, 4, n).tolist()
        b = [x if rng.random() < 0.5 else int(rng.integers(0, 4)) for x in a]
        res = cohen_kappa(a, b, [0, 1, 2, 3, 4], weights)
        if res.value is None:
            assert len(set(a) | set(b)) == 1
            continue
        assert res.value == pytest.approx(cohen_kappa_score(a, b, labels=[0, 1, 2, 3, 4], weights=weights), abs=1e-12)
