"""Agreement and ranking statistics: short pure functions, each with its formula, edge cases and source.

Conventions: an undefined statistic is returned as ``StatResult(value=None, reason=...)`` -- never 0, never an
exception for data-dependent cases. Bad arguments (different lengths, unknown weighting) raise ``ValueError``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np


@dataclass(frozen=True)
class StatResult:
    """A statistic's value, or None with the reason it is undefined; n = units used."""

    value: float | None
    n: int
    reason: str | None = None


def exact_agreement(a: Sequence, b: Sequence) -> StatResult:
    """Share of units where both raters gave the same label: (1/n) * sum[a_i == b_i].

    Pairs where either side is missing (None/NaN) are dropped first. n = 0 -> None ("no shared units").
    """
    pairs = _complete_pairs(a, b)
    if not pairs:
        return StatResult(None, 0, "no shared units")
    return StatResult(sum(x == y for x, y in pairs) / len(pairs), len(pairs))


def cohen_kappa(a: Sequence, b: Sequence, labels: Sequence, weights: str | None = None) -> StatResult:
    """Cohen's kappa between two raters, optionally weighted, over a fixed label set.

    kappa = 1 - sum(w * O) / sum(w * E), O the observed joint proportions, E the product of the marginals,
    w = 0 on the diagonal and 1 off it (unweighted), |i-j| (``"linear"``) or (i-j)^2 (``"quadratic"``), with i, j
    the positions in ``labels``. ``labels`` is the rubric's full scale (e.g. [0, 1, 2]), not the labels observed, so
    a weighted kappa means the same thing whatever subset was used. Computed by scikit-learn's
    ``cohen_kappa_score`` (Cohen 1960; Cohen 1968 for weights).

    Pairs with a missing side are dropped. Undefined -> None with a reason: no shared units; expected disagreement
    zero (both raters used one and the same category only); a label outside ``labels`` raises ValueError.
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', not {weights!r}")
    pairs = _complete_pairs(a, b)
    if not pairs:
        return StatResult(None, 0, "no shared units")
    known = set(labels)
    unknown = sorted({x for p in pairs for x in p if x not in known}, key=str)
    if unknown:
        raise ValueError(f"labels {unknown} are not on the scale {list(labels)}")
    index = {label: i for i, label in enumerate(labels)}
    k = len(labels)
    observed = np.zeros((k, k))
    for x, y in pairs:
        observed[index[x], index[y]] += 1
    observed /= len(pairs)
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    w = _weight_matrix(k, weights)
    expected_disagreement = float((w * expected).sum())
    if expected_disagreement == 0.0:
        return StatResult(None, len(pairs), "undefined: both raters used a single, identical category")
    from sklearn.metrics import cohen_kappa_score

    value = cohen_kappa_score([x for x, _ in pairs], [y for _, y in pairs], labels=list(labels), weights=weights)
    return StatResult(float(value), len(pairs))


def _weight_matrix(k: int, weights: str | None) -> np.ndarray:
    i, j = np.indices((k, k))
    if weights is None:
        return (i != j).astype(float)
    if weights == "linear":
        return np.abs(i - j).astype(float)
    return ((i - j) ** 2).astype(float)


def _is_missing(x) -> bool:
    return x is None or (isinstance(x, float) and np.isnan(x))


def _complete_pairs(a: Sequence, b: Sequence) -> list[tuple]:
    if len(a) != len(b):
        raise ValueError(f"the two raters have {len(a)} and {len(b)} ratings; they must rate the same units")
    return [(x, y) for x, y in zip(a, b) if not _is_missing(x) and not _is_missing(y)]


# =====================================================================================================================
# Leaderboard intervals (issue 6: the app's leaderboard ranks runs with 95% intervals; see evalhouse.ranking)
# =====================================================================================================================


@dataclass(frozen=True)
class IntervalResult:
    """An estimate with its interval [low, high]; all None with the reason when undefined; n = units used."""

    estimate: float | None
    low: float | None
    high: float | None
    n: int
    reason: str | None = None


def bootstrap_mean_ci(values: Sequence, level: float = 0.95, n_boot: int = 2000, seed: int = 0) -> IntervalResult:
    """Percentile bootstrap interval of the mean (Efron & Tibshirani 1993, ch. 13).

    Draw ``n_boot`` resamples of the n values with replacement (numpy Generator PCG64 seeded with ``seed``, so the
    interval is reproducible), take each resample's mean, and return the (1-level)/2 and (1+level)/2 quantiles of
    those means (numpy's default linear interpolation). estimate = the sample mean.
    Missing values (None/NaN) are dropped first. n = 0 -> all None ("no values"); n = 1 -> estimate only, interval
    None ("fewer than 2 values: no interval"); all values equal -> the degenerate interval [v, v] (every resample
    has the same mean). level outside (0, 1) or n_boot < 1 -> ValueError.
    With at most 1,000 distinct values (rubric totals) the resamples are drawn as multinomial counts of the distinct
    values (the same bootstrap distribution, fast on a million replies); otherwise as indices, in chunks so memory
    stays bounded on large n.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    if n_boot < 1:
        raise ValueError(f"n_boot must be at least 1, got {n_boot}")
    x = np.array([v for v in values if not _is_missing(v)], dtype=float)
    n = len(x)
    if n == 0:
        return IntervalResult(None, None, None, 0, "no values")
    mean = float(x.mean())
    if n == 1:
        return IntervalResult(mean, None, None, 1, "fewer than 2 values: no interval")
    rng = np.random.default_rng(seed)
    distinct, counts = np.unique(x, return_counts=True)
    if len(distinct) <= 1000:
        # Few distinct values (rubric totals): a resample's value counts are Multinomial(n, counts / n), so drawing
        # the counts is the same bootstrap distribution at O(n_boot * k) instead of O(n_boot * n).
        draws = rng.multinomial(n, counts / n, size=n_boot)
        means = draws @ distinct / n
    else:
        means = np.empty(n_boot)
        chunk = max(1, min(n_boot, 5_000_000 // n))
        for start in range(0, n_boot, chunk):
            stop = min(n_boot, start + chunk)
            idx = rng.integers(0, n, size=(stop - start, n))
            means[start:stop] = x[idx].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return IntervalResult(mean, float(lo), float(hi), n)
