"""Cohen's kappa and exact agreement against hand-checked values and scikit-learn."""
import math

import pytest
from sklearn.metrics import cohen_kappa_score

from evalhouse.stats.agreement import cohen_kappa, cohen_kappa_table, exact_agreement

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


def test_kappa_from_a_contingency_table_equals_kappa_from_the_pairs():
    # R1 x R2 on [0, 1, 2]: (0,0) x2, (1,1) x2, (2,2) x2, (2,1) x1, (1,2) x1
    table = [[2, 0, 0], [0, 2, 1], [0, 1, 2]]
    for w in (None, "linear", "quadratic"):
        assert cohen_kappa_table(table, w).value == cohen_kappa(R1, R2, [0, 1, 2], w).value
    assert cohen_kappa_table(table).n == 8
    assert cohen_kappa_table([[0, 0], [0, 0]]).reason == "no shared units"
    assert "single" in cohen_kappa_table([[0, 0], [0, 5]]).reason
    with pytest.raises(ValueError, match="square"):
        cohen_kappa_table([[1, 2, 3]])
    with pytest.raises(ValueError, match="negative"):
        cohen_kappa_table([[1, -1], [0, 1]])


def test_pair_kappas_from_counts_equal_kappa_on_every_pair():
    """int_rater_pair_kappa's counts path gives exactly the values of cohen_kappa on the unaggregated pairs."""
    import numpy as np
    import pandas as pd

    from evalhouse.stats.rater_pairs import KEYS, pair_kappas

    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3, 200), rng.integers(0, 3, 200)
    b[:120] = a[:120]
    ready_a, ready_b = a == 2, b == 2
    rows = [("s", "r", 1, "ana", "ben", "c1", str(x), str(y)) for x, y in zip(a, b)]
    rows += [("s", "r", 1, "ana", "ben", "ready", str(x).lower(), str(y).lower()) for x, y in zip(ready_a, ready_b)]
    rows += [("s", "r", 1, "ana", "ben", "c2", "1", "1")] * 4
    pairs = pd.DataFrame(rows, columns=KEYS + ["value_a", "value_b"])
    counts = pairs.groupby(KEYS + ["value_a", "value_b"]).size().rename("n_units").reset_index()
    criteria = pd.DataFrame([("r", 1, "c1", 0, 2), ("r", 1, "c2", 0, 2)],
                            columns=["rubric_id", "rubric_version", "criterion", "min_score", "max_score"])
    out = pair_kappas(counts, criteria).set_index("measure")
    for w, col in ((None, "cohen_kappa"), ("linear", "kappa_linear"), ("quadratic", "kappa_quadratic")):
        assert out.loc["c1", col] == cohen_kappa(list(a), list(b), [0, 1, 2], w).value
    assert out.loc["c1", "n_pairs"] == 200
    assert out.loc["ready", "cohen_kappa"] == cohen_kappa(list(ready_a), list(ready_b), [False, True]).value
    assert out.loc["ready", "kappa_reason"] == "weighted kappa does not apply to a binary decision"
    assert pd.isna(out.loc["c2", "cohen_kappa"]) and "single" in out.loc["c2", "kappa_reason"]
    bad = counts.assign(value_a=counts["value_a"].replace("2", "3"))
    with pytest.raises(ValueError, match="not on the scale"):
        pair_kappas(bad, criteria)
