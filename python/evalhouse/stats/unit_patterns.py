"""Reliability statistics from aggregates: the statistics of :mod:`evalhouse.stats.agreement` computed from
sufficient statistics that SQL can count, instead of from a units x raters matrix of every rating.

Two aggregates carry everything the reliability marts need:

* **unit value patterns** (:class:`UnitPatterns`): the distinct sorted lists of values a unit received (its
  "pattern", e.g. ``[2, 2, 3]`` for a response scored 2, 2 and 3 by three raters) with the number of units that
  received each. Krippendorff's alpha, ICC(1,1) / ICC(1,k) (one-way: the rater is not a factor), Fleiss' kappa,
  Gwet's AC1 and pairwise agreement depend on a unit only through its pattern, so a group of a million responses
  on a 0-2 scale with two raters reduces to at most nine patterns.
* **pair contingency counts** (:func:`spearman_from_counts`): for two raters, the number of units both rated with
  each (x, y) pair of values; Spearman's rho depends on nothing else.

Each function says which function of ``agreement`` it equals (same definition, same NULL rules and reasons, values
equal up to float rounding, ~1e-15); the tests compare them with those functions and with the reference libraries
(krippendorff, scipy) on the expanded data. Krippendorff's alpha goes through the coincidence matrix
o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1) (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability",
section C), :func:`coincidences` and :func:`krippendorff_alpha_coincidences`.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evalhouse.stats import scipy_module
from evalhouse.stats.agreement import LEVELS, MAX_ORDINAL_VALUES, ICC1Result, icc1_from_mean_squares
from evalhouse.stats.result import StatResult


@dataclass(frozen=True)
class UnitPatterns:
    """Distinct unit value patterns and how many units had each.

    values: every pattern's values, concatenated (float, no NaN; sorted inside a pattern is not required);
    offsets: pattern p is ``values[offsets[p]:offsets[p + 1]]`` (length = patterns + 1, starting at 0);
    units: units per pattern (positive integers). A unit's values are its usable ratings, one per rater; a pattern
    of length m is a unit rated m times (m = 1: rated once, never pairable).
    """

    values: np.ndarray
    offsets: np.ndarray
    units: np.ndarray

    @classmethod
    def from_lists(cls, patterns: Sequence[Sequence[float]], units: Sequence[int] | None = None) -> UnitPatterns:
        """From a list of per-pattern value lists (and units per pattern; default 1 each: one row per unit)."""
        lengths = np.array([len(p) for p in patterns], dtype=np.int64)
        values = np.concatenate([np.asarray(p, dtype=float) for p in patterns]) if len(patterns) else np.empty(0)
        offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        w = np.ones(len(patterns), dtype=np.int64) if units is None else np.asarray(units, dtype=np.int64)
        return cls(values, offsets, w)

    @classmethod
    def from_matrix(cls, ratings) -> UnitPatterns:
        """Every row of a units x raters matrix (NaN = missing) as its own pattern (rows with no rating dropped)."""
        m = np.asarray(ratings, dtype=float)
        rows = [row[~np.isnan(row)] for row in m]
        return cls.from_lists([r for r in rows if r.size])

    def __post_init__(self):
        if self.offsets.size != self.units.size + 1 or (self.offsets.size and self.offsets[-1] != self.values.size):
            raise ValueError("offsets must have one entry per pattern plus one, ending at len(values)")
        if np.isnan(self.values).any():
            raise ValueError("a pattern holds usable values only (no NaN)")

    @property
    def sizes(self) -> np.ndarray:
        """m_p, the ratings per unit of each pattern."""
        return np.diff(self.offsets)

    def subset(self, keep: np.ndarray) -> UnitPatterns:
        """The patterns where ``keep`` (a boolean per pattern) is true."""
        keep = np.asarray(keep, dtype=bool)
        sizes = self.sizes[keep]
        idx = np.repeat(keep, self.sizes)
        return UnitPatterns(self.values[idx], np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                            self.units[keep])

    def pattern_of_value(self) -> np.ndarray:
        """The pattern index of every entry of ``values``."""
        return np.repeat(np.arange(self.units.size), self.sizes)

    def category_counts(self, categories: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """(categories, counts): counts[p, c] = n_pc, the ratings of pattern p equal to category c. Categories
        default to the distinct values observed (sorted); a value outside ``categories`` is not counted."""
        cats = np.unique(self.values) if categories is None else np.asarray(categories, dtype=float)
        counts = np.zeros((self.units.size, cats.size))
        if cats.size and self.values.size:
            pos = np.searchsorted(cats, self.values)
            pos_c = np.minimum(pos, cats.size - 1)
            hit = cats[pos_c] == self.values
            np.add.at(counts, (self.pattern_of_value()[hit], pos_c[hit]), 1.0)
        return cats, counts


# ---------------------------------------------------------------------------------------- Krippendorff's alpha

def coincidences(patterns: UnitPatterns):
    """The coincidence matrix of the pairable units (m_u >= 2): (values, o) with ``values`` the distinct pairable
    values (sorted) and o (values x values) o_ck = sum_u n_uc (n_uk - [c = k]) / (m_u - 1), each pattern weighted
    by its units (Krippendorff 2011, section C); a dense array up to MAX_ORDINAL_VALUES values, beyond that a
    scipy.sparse CSR matrix (only the interval and nominal metrics are computed there). Row sums of o are the value
    totals n_c."""
    pairable = patterns.subset(patterns.sizes >= 2)
    values = np.unique(pairable.values)
    v = values.size
    if v == 0:
        return values, np.zeros((0, 0))
    # the distinct (pattern, value) entries of every pattern and their counts n_pc, ordered by pattern
    key, n_pc = np.unique(pairable.pattern_of_value() * v + np.searchsorted(values, pairable.values),
                          return_counts=True)
    entry_pattern, entry_code = key // v, key % v
    per_pattern = np.bincount(entry_pattern, minlength=pairable.units.size)
    first = np.concatenate([[0], np.cumsum(per_pattern)[:-1]])
    # every ordered pair of entries of the same pattern: entry i with each of its pattern's entries
    reps = per_pattern[entry_pattern]
    left = np.repeat(np.arange(key.size), reps)
    run_start = np.concatenate([[0], np.cumsum(reps)[:-1]])
    right = np.repeat(first[entry_pattern], reps) + (np.arange(left.size) - np.repeat(run_start, reps))
    p = entry_pattern[left]
    weight = (pairable.units[p] / (pairable.sizes[p] - 1.0)) * n_pc[left] * (n_pc[right] - (left == right))
    if v <= MAX_ORDINAL_VALUES:
        return values, np.bincount(entry_code[left] * v + entry_code[right], weights=weight,
                                   minlength=v * v).reshape(v, v)
    sparse = scipy_module("scipy.sparse")

    return values, sparse.coo_matrix((weight, (entry_code[left], entry_code[right])), shape=(v, v)).tocsr()


def krippendorff_alphas(patterns: UnitPatterns, n_raters: int | None = None,
                        levels: Sequence[str] = ("nominal", "ordinal", "interval")) -> dict[str, StatResult]:
    """krippendorff_alpha at each of ``levels``, the coincidence matrix built once."""
    bad = [lv for lv in levels if lv not in LEVELS]
    if bad:
        raise ValueError(f"level must be one of {LEVELS}, not {bad[0]!r}")
    k = int(patterns.sizes.max(initial=0)) if n_raters is None else int(n_raters)
    if k < 2:
        return {lv: StatResult(None, 0, "fewer than two raters with ratings") for lv in levels}
    n = int(patterns.units[patterns.sizes >= 2].sum())
    if n == 0:
        return {lv: StatResult(None, 0, "no unit has two or more ratings") for lv in levels}
    values, o = coincidences(patterns)
    return {lv: krippendorff_alpha_coincidences(values, o, lv, n) for lv in levels}


def krippendorff_alpha_coincidences(values: Sequence[float], o, level: str = "nominal",
                                    n_units: int | None = None) -> StatResult:
    """Krippendorff's alpha from a coincidence matrix: alpha = 1 - (n - 1) sum_ck o_ck d_ck / sum_ck n_c n_k d_ck,
    n_c = sum_k o_ck, n = sum_c n_c, d the level's squared distance (nominal [c != k]; ordinal
    (sum_{g=c..k} n_g - (n_c + n_k)/2)^2; interval (c - k)^2; ratio ((c - k)/(c + k))^2). Krippendorff (2011),
    "Computing Krippendorff's Alpha-Reliability", sections C and E.

    values: the numeric value of each row / column of o (sorted ascending for the ordinal metric); o: values x
    values, dense or scipy.sparse, symmetric, non-negative. n_units: the pairable units (reported as n; default 0).
    Same NULL rules and reasons as agreement.krippendorff_alpha: an empty matrix -> "no unit has two or more
    ratings"; one value only -> expected disagreement 0; negative values at the ratio level; more than
    MAX_ORDINAL_VALUES values at the ordinal / ratio level.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    n_units = int(n_units or 0)
    vals = np.asarray(values, dtype=float)
    if hasattr(o, "tocoo"):  # scipy.sparse
        coo = o.tocoo()
        shape, row, col, data = coo.shape, coo.row, coo.col, coo.data.astype(float)
    else:
        dense = np.asarray(o, dtype=float)
        shape = dense.shape
        row, col = np.nonzero(dense) if dense.ndim == 2 else (None, None)
        data = dense[row, col] if dense.ndim == 2 else None
    if shape != (vals.size, vals.size):
        raise ValueError(f"a coincidence matrix of {vals.size} values must be {vals.size} x {vals.size}, "
                         f"got {shape}")
    if data is not None and (data < 0).any():
        raise ValueError("a coincidence matrix cannot hold a negative count")
    n_c = np.bincount(row, weights=data, minlength=vals.size)
    n = float(n_c.sum())
    if n <= 0:
        return StatResult(None, n_units, "no unit has two or more ratings")
    used = n_c > 0
    if used.sum() < 2:
        return StatResult(None, n_units, "all pairable ratings are equal: expected disagreement is 0")
    if not used.all():  # drop values nobody used
        new = np.cumsum(used) - 1
        row, col = new[row], new[col]
        vals, n_c = vals[used], n_c[used]
    if level == "ratio" and np.any(vals < 0):
        return StatResult(None, n_units, "ratio level needs non-negative values")
    if level in ("ordinal", "ratio") and vals.size > MAX_ORDINAL_VALUES:
        return StatResult(None, n_units, f"{vals.size} distinct values: the {level} metric needs a values x values "
                                         f"coincidence matrix (limit {MAX_ORDINAL_VALUES}); use the interval level")
    if level == "nominal":
        observed = n - float(data[row == col].sum())
        expected = n * n - float(np.sum(n_c ** 2))
    elif level == "interval":
        observed = float(np.sum(data * (vals[row] - vals[col]) ** 2))
        mean = float(np.sum(n_c * vals)) / n
        expected = 2.0 * n * float(np.sum(n_c * (vals - mean) ** 2))
    else:
        if level == "ordinal":
            if np.any(np.diff(vals) <= 0):
                raise ValueError("ordinal alpha needs the values sorted ascending")
            cum = np.cumsum(n_c)
            idx = np.arange(vals.size)
            lo, hi = np.minimum.outer(idx, idx), np.maximum.outer(idx, idx)
            between = cum[hi] - np.where(lo > 0, cum[lo - 1], 0.0)
            delta = (between - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2
        else:  # ratio
            s = vals[:, None] + vals[None, :]
            delta = np.divide(vals[:, None] - vals[None, :], s, out=np.zeros_like(s), where=s != 0) ** 2
        observed = float(np.sum(data * delta[row, col]))
        expected = float(np.sum(np.outer(n_c, n_c) * delta))
    return StatResult(1.0 - (n - 1.0) * observed / expected, n_units)


def krippendorff_alpha(patterns: UnitPatterns, level: str = "nominal", n_raters: int | None = None) -> StatResult:
    """agreement.krippendorff_alpha of the units behind ``patterns`` (numeric values, no labels).

    n_raters: the raters with at least one usable rating among these units (the columns of the matrix); fewer than
    two -> None, "fewer than two raters with ratings" (a pattern cannot tell; default: the longest pattern, which
    is right whenever some unit was rated by every rater). n = pairable units (rated two or more times).
    """
    return krippendorff_alphas(patterns, n_raters, (level,))[level]


def rank_based_alphas(system_means, higher_is_better: bool = True,
                      levels: Sequence[str] = ("nominal", "ordinal", "interval")) -> dict[str, StatResult]:
    """agreement.rank_based_alpha at each of ``levels``: each column's (coder's) system means become average ranks
    (agreement.average_ranks, ties averaged, rank 1 = best), then Krippendorff's alpha over the systems x coders
    rank matrix, its coincidence matrix built once. Fewer than two systems -> None ("fewer than two systems:
    nothing to rank"), then the NULL rules of krippendorff_alpha (coders without a rank do not count)."""
    from evalhouse.stats.agreement import average_ranks

    m = np.asarray(system_means, dtype=float)
    if m.ndim != 2:
        raise ValueError("system_means must be systems x raters")
    if m.shape[0] < 2:
        return {lv: StatResult(None, int(m.shape[0]), "fewer than two systems: nothing to rank") for lv in levels}
    ranks = np.column_stack([average_ranks(m[:, j], higher_is_better) for j in range(m.shape[1])]) \
        if m.shape[1] else m
    n_raters = int(np.sum(np.any(~np.isnan(ranks), axis=0))) if ranks.size else 0
    return krippendorff_alphas(UnitPatterns.from_matrix(ranks), n_raters, levels)


# ---------------------------------------------------------------------------------------------------- ICC(1,1)

def icc1_from_sums(unit_sums: Sequence[float], unit_ss: Sequence[float], k: int,
                   units: Sequence[int] | None = None) -> ICC1Result:
    """ICC(1,1) and ICC(1,k) from the one-way ANOVA sums of the complete units (rated by all k raters).

    unit_sums: sum of each unit's k ratings, S_u; unit_ss: each unit's within sum of squares
    sum_j (x_uj - S_u / k)^2; units: how many units share each (S_u, SS_u) (default 1 each). With n = sum units,
    grand = sum S_u / (n k): MS_B = k sum_u (S_u / k - grand)^2 / (n - 1), MS_W = sum_u SS_u / (n (k - 1)),
    ICC(1,1) = (MS_B - MS_W) / (MS_B + (k - 1) MS_W), ICC(1,k) = (MS_B - MS_W) / MS_B (Shrout & Fleiss 1979,
    case 1). Equal to agreement.icc1 on the complete units, with its NULL rules and reasons: k < 2 -> "fewer than
    two raters with ratings"; n < 2 -> "fewer than two units rated by every rater"; no variance at all; MS_B = 0 for
    ICC(1,k). n = complete units.
    """
    sums = np.asarray(unit_sums, dtype=float)
    ss = np.asarray(unit_ss, dtype=float)
    w = np.ones(sums.size) if units is None else np.asarray(units, dtype=float)
    if sums.shape != ss.shape or sums.shape != w.shape:
        raise ValueError("unit_sums, unit_ss and units must have one entry per unit (pattern)")
    n = int(w.sum())
    if k < 2:
        r = StatResult(None, n, "fewer than two raters with ratings")
        return ICC1Result(r, r, k)
    if n < 2:
        r = StatResult(None, n, "fewer than two units rated by every rater")
        return ICC1Result(r, r, k)
    unit_means = sums / k
    grand = float(np.sum(w * sums)) / (n * k)
    ms_b = k * float(np.sum(w * (unit_means - grand) ** 2)) / (n - 1)
    ms_w = float(np.sum(w * ss)) / (n * (k - 1))
    return icc1_from_mean_squares(ms_b, ms_w, n, k)


def icc1(patterns: UnitPatterns, n_raters: int) -> ICC1Result:
    """agreement.icc1 of the units behind ``patterns``: the complete units are the patterns of length n_raters
    (one usable rating per rater), their sums and within sums of squares go to icc1_from_sums."""
    k = int(n_raters)
    if k < 1:
        r = StatResult(None, 0, "fewer than two raters with ratings")
        return ICC1Result(r, r, k)
    complete = patterns.subset(patterns.sizes == k)
    if complete.units.size == 0:
        return icc1_from_sums([], [], k, [])
    starts = complete.offsets[:-1]
    sums = np.add.reduceat(complete.values, starts)
    means = sums / k
    ss = np.add.reduceat((complete.values - np.repeat(means, k)) ** 2, starts)
    return icc1_from_sums(sums, ss, k, complete.units)


# ------------------------------------------------------------------------- Fleiss' kappa, Gwet's AC1, agreement

def _scale_check(patterns: UnitPatterns, labels: Sequence | None) -> str | None:
    if labels is None:
        return None
    scale = np.asarray(labels, dtype=float)
    present = np.unique(patterns.values)
    bad = present[~np.isin(present, scale)]
    return f"value {bad[0]:g} not on the scale {list(labels)}" if bad.size else None


def _pair_agreement(counts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """sum_c n_pc (n_pc - 1) / (m_p (m_p - 1)) per (pairable) pattern."""
    return (counts * (counts - 1)).sum(axis=1) / (sizes * (sizes - 1.0))


def percent_agreement(patterns: UnitPatterns) -> StatResult:
    """agreement.percent_agreement (Fleiss' P-bar, no labels): mean over units rated two or more times of agreeing
    rater pairs / rater pairs. Undefined -> None: no unit rated twice. n = pairable units."""
    pairable = patterns.subset(patterns.sizes >= 2)
    n = int(pairable.units.sum())
    if n == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    _, counts = pairable.category_counts()
    return StatResult(float(np.sum(pairable.units * _pair_agreement(counts, pairable.sizes))) / n, n)


def fleiss_kappa(patterns: UnitPatterns, labels: Sequence | None = None) -> StatResult:
    """agreement.fleiss_kappa: (P - P_e) / (1 - P_e) over the pairable units, P_e = sum_j p_j^2 from their pooled
    category shares (Fleiss 1971; unequal raters per unit as in Fleiss, Levin & Paik 2003). Same reasons: a value
    not on ``labels``; no unit rated twice; every rating in one category. n = pairable units."""
    reason = _scale_check(patterns, labels)
    if reason:
        return StatResult(None, 0, reason)
    pairable = patterns.subset(patterns.sizes >= 2)
    n = int(pairable.units.sum())
    if n == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    _, counts = pairable.category_counts(labels)
    w = pairable.units.astype(float)
    p_bar = float(np.sum(w * _pair_agreement(counts, pairable.sizes))) / n
    totals = counts.T @ w
    p_j = totals / totals.sum()
    p_e = float(np.sum(p_j ** 2))
    if p_e >= 1.0 - 1e-15:
        return StatResult(None, n, "all ratings in one category: chance agreement is 1, kappa undefined")
    return StatResult((p_bar - p_e) / (1.0 - p_e), n)


def gwet_ac1(patterns: UnitPatterns, labels: Sequence | None = None) -> StatResult:
    """agreement.gwet_ac1: (p_a - p_e) / (1 - p_e), p_a over the pairable units, pi_k over every rated unit,
    q = the scale's categories (labels) or the distinct values observed (Gwet 2008). Same reasons: a value not on
    ``labels``; fewer than two categories; no unit rated twice; every rating in one category. n = pairable units."""
    reason = _scale_check(patterns, labels)
    if reason:
        return StatResult(None, 0, reason)
    cats, counts = patterns.category_counts(labels)
    q = int(cats.size)
    if q < 2:
        return StatResult(None, 0, "fewer than two categories")
    w = patterns.units.astype(float)
    sizes = patterns.sizes
    pi_k = (counts / sizes[:, None]).T @ w / w.sum()
    pair = sizes >= 2
    n = int(patterns.units[pair].sum())
    if n == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    if np.count_nonzero(counts.T @ w) < 2:
        return StatResult(None, n, "all ratings in one category: chance-corrected agreement undefined")
    p_a = float(np.sum(w[pair] * _pair_agreement(counts[pair], sizes[pair]))) / n
    p_e = float(np.sum(pi_k * (1 - pi_k)) / (q - 1))
    return StatResult((p_a - p_e) / (1 - p_e), n)


def all_agree_share(patterns: UnitPatterns) -> float | None:
    """Share of the pairable units whose ratings are all equal (None when no unit is pairable)."""
    pairable = patterns.subset(patterns.sizes >= 2)
    n = int(pairable.units.sum())
    if n == 0:
        return None
    lo = np.minimum.reduceat(pairable.values, pairable.offsets[:-1])
    hi = np.maximum.reduceat(pairable.values, pairable.offsets[:-1])
    return float(np.sum(pairable.units * (lo == hi))) / n


# ---------------------------------------------------------------------------------------------- Spearman's rho

def spearman_from_counts(x: Sequence[float], y: Sequence[float], counts: Sequence[int]) -> StatResult:
    """agreement.spearman_rho of the paired sample in which the pair (x[i], y[i]) occurs counts[i] times: Pearson's
    r of the average ranks (ties share their mean rank, as scipy.stats.rankdata), each cell weighted by its count.
    A value's average rank is (#pairs below + #pairs at or below + 1) / 2 over the whole sample.

    Same NULL rules and reasons: fewer than two pairs; x constant; y constant (in that order). n = pairs."""
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    c = np.asarray(counts, dtype=float)
    if not (xa.shape == ya.shape == c.shape) or xa.ndim != 1:
        raise ValueError("x, y and counts must be 1-d and the same length")
    keep = (c > 0) & ~np.isnan(xa) & ~np.isnan(ya)
    xa, ya, c = xa[keep], ya[keep], c[keep]
    n = int(c.sum())
    if n < 2:
        return StatResult(None, n, "fewer than two complete pairs")
    if np.all(xa == xa[0]):
        return StatResult(None, n, "x is constant (all tied): correlation undefined")
    if np.all(ya == ya[0]):
        return StatResult(None, n, "y is constant (all tied): correlation undefined")
    rx, ry = _weighted_average_ranks(xa, c), _weighted_average_ranks(ya, c)
    dx, dy = rx - float(np.sum(c * rx)) / n, ry - float(np.sum(c * ry)) / n
    r = np.sum(c * dx * dy) / np.sqrt(np.sum(c * dx * dx) * np.sum(c * dy * dy))
    return StatResult(float(np.clip(r, -1.0, 1.0)), n)


def _weighted_average_ranks(v: np.ndarray, c: np.ndarray) -> np.ndarray:
    """The average rank of each v[i] in the sample where v[i] occurs c[i] times."""
    distinct, inverse = np.unique(v, return_inverse=True)
    at = np.bincount(inverse, weights=c, minlength=distinct.size)
    below = np.concatenate([[0.0], np.cumsum(at)[:-1]])
    return (0.5 * ((below + at) + below + 1))[inverse]
