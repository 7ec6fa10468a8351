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


# ======================================================================================================================
# Paired bootstrap for the decision-group comparison (issue 5; models/marts/decisions/fct_decisions__paired_bootstrap)
# ======================================================================================================================
@dataclass(frozen=True)
class PairedBootstrapResult:
    """Mean paired difference a - b with its percentile bootstrap interval; value None (with reason) when undefined."""

    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int
    reason: str | None = None


def paired_bootstrap_ci(a: Sequence, b: Sequence, n_resamples: int = 10000, seed: int = 0,
                        confidence: float = 0.95) -> PairedBootstrapResult:
    """Percentile bootstrap CI of the mean paired difference d_i = a_i - b_i (same unit i in both).

    value = (1/n) * sum(d_i). Resampling: ``n_resamples`` draws of n indices with replacement from
    ``numpy.random.default_rng(seed).integers(0, n, (n_resamples, n))`` (deterministic for a seed); the interval is
    the (1 - confidence)/2 and (1 + confidence)/2 percentiles (numpy's linear interpolation) of the resampled means
    (Efron & Tibshirani 1993, ch. 13, the percentile interval). Same draws and result as
    ``scipy.stats.bootstrap((d,), np.mean, method="percentile", rng=default_rng(seed))`` (tested).

    Pairs with a missing side (None/NaN) are dropped. Undefined -> value None with a reason: fewer than 2 complete
    pairs. All differences equal -> a degenerate interval [d, d] (defined, not an error). The interval describes
    resampling variability on these cases only; it is not a significance test and says nothing about other cases.
    Bad arguments (different lengths, confidence outside (0, 1), n_resamples < 1) raise ValueError.
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), not {confidence!r}")
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, not {n_resamples!r}")
    pairs = _complete_pairs(a, b)
    n = len(pairs)
    if n < 2:
        return PairedBootstrapResult(None, None, None, n, f"{n} complete pair(s); at least 2 are needed")
    d = np.array([float(x) - float(y) for x, y in pairs])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, (n_resamples, n))
    means = d[idx].mean(axis=1)
    alpha = 1 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return PairedBootstrapResult(float(d.mean()), float(low), float(high), n)
