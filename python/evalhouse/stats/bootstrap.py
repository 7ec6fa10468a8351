"""Percentile bootstrap intervals: the mean paired difference of two groups on the same units (the decision
comparison, ``fct_decisions__paired_bootstrap``) and the mean of one sample (the leaderboard's run intervals,
``fct_model_run_score_intervals``; ranked by ``evalhouse.stats.ranking``).

Both return ``StatResult`` with ``value`` the estimate and ``low`` / ``high`` the interval; undefined -> None with the
reason, never 0. Bad arguments raise ``ValueError``.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from evalhouse.stats.agreement import complete_pairs, is_missing
from evalhouse.stats.result import StatResult

__all__ = ["paired_bootstrap_ci", "bootstrap_mean_ci", "bootstrap_mean_ci_counts", "MAX_DISTINCT_FOR_COUNTS"]

# bootstrap_mean_ci draws multinomial counts of the distinct values up to this many, else indices
MAX_DISTINCT_FOR_COUNTS = 1000


def paired_bootstrap_ci(a: Sequence, b: Sequence, n_resamples: int = 10000, seed: int = 0,
                        confidence: float = 0.95) -> StatResult:
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
    pairs = complete_pairs(a, b)
    n = len(pairs)
    if n < 2:
        return StatResult(None, n, f"{n} complete pair(s); at least 2 are needed")
    d = np.array([float(x) - float(y) for x, y in pairs])
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, (n_resamples, n))
    means = d[idx].mean(axis=1)
    alpha = 1 - confidence
    low, high = np.percentile(means, [100 * alpha / 2, 100 * (1 - alpha / 2)])
    return StatResult(float(d.mean()), n, low=float(low), high=float(high))


def bootstrap_mean_ci(values: Sequence, level: float = 0.95, n_boot: int = 2000, seed: int = 0) -> StatResult:
    """Percentile bootstrap interval of the mean (Efron & Tibshirani 1993, ch. 13).

    Draw ``n_boot`` resamples of the n values with replacement (numpy Generator PCG64 seeded with ``seed``, so the
    interval is reproducible), take each resample's mean, and return the (1-level)/2 and (1+level)/2 quantiles of
    those means (numpy's default linear interpolation). value = the sample mean.
    Missing values (None/NaN) are dropped first. n = 0 -> all None ("no values"); n = 1 -> value only, interval
    None ("fewer than 2 values: no interval"); all values equal -> the degenerate interval [v, v] (every resample
    has the same mean). level outside (0, 1) or n_boot < 1 -> ValueError.
    With at most 1,000 distinct values (rubric totals) the resamples are drawn as multinomial counts of the distinct
    values (the same bootstrap distribution, fast on a million replies); otherwise as indices, in chunks so memory
    stays bounded on large n.
    """
    _check_level_and_n_boot(level, n_boot)
    if isinstance(values, np.ndarray) and values.dtype.kind == "f":
        x = values[~np.isnan(values)].astype(float)  # the same values as the loop below, without a Python loop
    else:
        x = np.array([v for v in values if not is_missing(v)], dtype=float)
    n = len(x)
    if n == 0:
        return StatResult(None, 0, "no values")
    mean = float(x.mean())
    if n == 1:
        return StatResult(mean, 1, "fewer than 2 values: no interval")
    rng = np.random.default_rng(seed)
    distinct, counts = np.unique(x, return_counts=True)
    if len(distinct) <= MAX_DISTINCT_FOR_COUNTS:
        means = _multinomial_means(rng, distinct, counts, n, n_boot)
    else:
        means = np.empty(n_boot)
        chunk = max(1, min(n_boot, 5_000_000 // n))
        for start in range(0, n_boot, chunk):
            stop = min(n_boot, start + chunk)
            idx = rng.integers(0, n, size=(stop - start, n))
            means[start:stop] = x[idx].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return StatResult(mean, n, low=float(lo), high=float(hi))


def bootstrap_mean_ci_counts(values: Sequence, counts: Sequence, level: float = 0.95, n_boot: int = 2000,
                             seed: int = 0) -> StatResult:
    """``bootstrap_mean_ci`` of the sample in which ``values[i]`` occurs ``counts[i]`` times, without listing it:
    for a sample counted by value in SQL (fct_model_run_score_intervals: a million replies are a few hundred rows).

    The same interval as ``bootstrap_mean_ci`` of the listed sample (equal values are merged first, so the distinct
    values, their counts and the multinomial draws are the same); value, the mean sum(v x c) / sum(c), equal up to
    float rounding (the listed mean sums in another order). Missing values (None/NaN) and counts of 0 are dropped;
    n = sum(counts); n 0 or 1 as in bootstrap_mean_ci. More than MAX_DISTINCT_FOR_COUNTS distinct values: the
    sample is listed in ascending order and resampled by index (bootstrap_mean_ci's other path; its draws depend
    on the order). Raises ValueError for lengths that differ, a negative or fractional count, or bad level / n_boot.
    """
    if len(values) != len(counts):
        raise ValueError(f"values and counts differ in length: {len(values)} and {len(counts)}")
    c = np.asarray(counts, dtype=float)
    if len(c) and ((c < 0).any() or (c != np.floor(c)).any()):
        raise ValueError("counts must be whole numbers of at least 0")
    keep = [i for i, v in enumerate(values) if not is_missing(v) and c[i] > 0]
    x = np.array([float(values[i]) for i in keep], dtype=float)
    distinct, inverse = np.unique(x, return_inverse=True)
    merged = np.bincount(inverse, weights=c[keep], minlength=len(distinct)).astype(np.int64)
    if len(distinct) > MAX_DISTINCT_FOR_COUNTS:
        return bootstrap_mean_ci(np.repeat(distinct, merged), level=level, n_boot=n_boot, seed=seed)
    _check_level_and_n_boot(level, n_boot)
    n = int(merged.sum())
    if n == 0:
        return StatResult(None, 0, "no values")
    mean = float(merged @ distinct / n)
    if n == 1:
        return StatResult(mean, 1, "fewer than 2 values: no interval")
    means = _multinomial_means(np.random.default_rng(seed), distinct, merged, n, n_boot)
    lo, hi = np.quantile(means, [(1 - level) / 2, (1 + level) / 2])
    return StatResult(mean, n, low=float(lo), high=float(hi))


def _check_level_and_n_boot(level: float, n_boot: int) -> None:
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    if n_boot < 1:
        raise ValueError(f"n_boot must be at least 1, got {n_boot}")


def _multinomial_means(rng: np.random.Generator, distinct: np.ndarray, counts: np.ndarray, n: int,
                       n_boot: int) -> np.ndarray:
    """The means of n_boot resamples of a sample of few distinct values (rubric totals): a resample's value counts
    are Multinomial(n, counts / n), so drawing the counts is the same bootstrap distribution at O(n_boot * k)
    instead of O(n_boot * n)."""
    draws = rng.multinomial(n, counts / n, size=n_boot)
    return draws @ distinct / n
