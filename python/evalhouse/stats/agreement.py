"""Agreement, reliability and correlation statistics: short pure functions, each with its formula, edge cases and
source.

Conventions: an undefined statistic is returned as ``StatResult(value=None, reason=...)`` -- never 0, never an
exception for data-dependent cases. Bad arguments (different lengths, unknown weighting) raise ``ValueError``.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from evalhouse.stats import scipy_module
from evalhouse.stats.result import StatResult


def exact_agreement(a: Sequence, b: Sequence) -> StatResult:
    """Share of units where both raters gave the same label: (1/n) * sum[a_i == b_i].

    Pairs where either side is missing (None/NaN) are dropped first. n = 0 -> None ("no shared units").
    """
    pairs = complete_pairs(a, b)
    if not pairs:
        return StatResult(None, 0, "no shared units")
    return StatResult(sum(x == y for x, y in pairs) / len(pairs), len(pairs))


def cohen_kappa(a: Sequence, b: Sequence, labels: Sequence, weights: str | None = None) -> StatResult:
    """Cohen's kappa between two raters, optionally weighted, over a fixed label set.

    kappa = 1 - sum(w * O) / sum(w * E), O the observed joint proportions, E the product of the marginals,
    w = 0 on the diagonal and 1 off it (unweighted), |i-j| (``"linear"``) or (i-j)^2 (``"quadratic"``), with i, j
    the positions in ``labels``. ``labels`` is the rubric's full scale (e.g. [0, 1, 2]), not the labels observed, so
    a weighted kappa means the same thing whatever subset was used (Cohen 1960; Cohen 1968 for weights). The
    formula is computed here (scikit-learn's ``cohen_kappa_score`` costs ~4 ms a call in input validation, which
    dominated the build); tests check it equals ``cohen_kappa_score`` with ``labels`` and ``weights``.

    Pairs with a missing side are dropped. Undefined -> None with a reason: no shared units; expected disagreement
    zero (both raters used one and the same category only); a label outside ``labels`` raises ValueError.
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', not {weights!r}")
    pairs = complete_pairs(a, b)
    if not pairs:
        return StatResult(None, 0, "no shared units")
    known = set(labels)
    unknown = sorted({x for p in pairs for x in p if x not in known}, key=str)
    if unknown:
        raise ValueError(f"labels {unknown} are not on the scale {list(labels)}")
    index = {label: i for i, label in enumerate(labels)}
    counts = np.zeros((len(labels), len(labels)))
    for x, y in pairs:
        counts[index[x], index[y]] += 1
    return cohen_kappa_table(counts, weights)


def cohen_kappa_table(counts, weights: str | None = None) -> StatResult:
    """Cohen's kappa from a k x k contingency table: ``counts[i, j]`` = units rater A put in category i and rater B
    in category j, categories in scale order (all k levels of the rubric, observed or not).

    The same formula as ``cohen_kappa``: kappa = 1 - sum(w * O) / sum(w * E), O = counts / n, E the outer product of
    O's row and column sums, w as in ``cohen_kappa``. Lets the warehouse aggregate the table in SQL and hand over
    k x k numbers per rater pair instead of every rated unit. n = 0 -> None ("no shared units"); zero expected
    disagreement -> None with its reason; a table that is not square, or has a negative count, raises ValueError.
    """
    if weights not in (None, "linear", "quadratic"):
        raise ValueError(f"weights must be None, 'linear' or 'quadratic', not {weights!r}")
    observed = np.array(counts, dtype=float)
    if observed.ndim != 2 or observed.shape[0] != observed.shape[1]:
        raise ValueError(f"a contingency table must be square, got shape {observed.shape}")
    if (observed < 0).any():
        raise ValueError("a contingency table cannot hold a negative count")
    n = int(round(observed.sum()))
    if n == 0:
        return StatResult(None, 0, "no shared units")
    observed /= observed.sum()
    expected = np.outer(observed.sum(axis=1), observed.sum(axis=0))
    w = _weight_matrix(observed.shape[0], weights)
    expected_disagreement = float((w * expected).sum())
    if expected_disagreement == 0.0:
        return StatResult(None, n, "undefined: both raters used a single, identical category")
    value = 1.0 - float((w * observed).sum()) / expected_disagreement
    return StatResult(value, n)


def _weight_matrix(k: int, weights: str | None) -> np.ndarray:
    i, j = np.indices((k, k))
    if weights is None:
        return (i != j).astype(float)
    if weights == "linear":
        return np.abs(i - j).astype(float)
    return ((i - j) ** 2).astype(float)


def is_missing(x) -> bool:
    return x is None or (isinstance(x, float) and np.isnan(x))


def complete_pairs(a: Sequence, b: Sequence) -> list[tuple]:
    if len(a) != len(b):
        raise ValueError(f"the two raters have {len(a)} and {len(b)} ratings; they must rate the same units")
    return [(x, y) for x, y in zip(a, b) if not is_missing(x) and not is_missing(y)]


# =====================================================================================================================
# Inter-rater reliability and judge-vs-human meta-evaluation
#
# ``ratings`` is always a units x raters array (rows = units such as responses, columns = raters or rater positions)
# with NaN (or None) for a missing rating; a missing rating is never a category. Scores are numbers; for nominal
# statistics text labels are accepted too. Data-dependent undefined cases give StatResult(None, n, reason); values
# outside a given scale give StatResult(None, n, "value ... not on the scale ...") rather than an exception.
# =====================================================================================================================

LEVELS = ("nominal", "ordinal", "interval", "ratio")


@dataclass(frozen=True)
class ICC1Result:
    """One-way random-effects intraclass correlations (Shrout & Fleiss 1979, case 1): single rater and mean of k."""

    single: StatResult  # ICC(1,1)
    average: StatResult  # ICC(1,k)
    k: int  # raters per unit used


def _matrix(ratings, labels: Sequence | None = None) -> tuple[np.ndarray | None, str | None]:
    """Units x raters float matrix (NaN = missing). Text labels become their position in ``labels`` (or in the
    sorted observed labels). Returns (matrix, None) or (None, reason) when a value is not on the scale."""
    raw = np.asarray(ratings)
    if raw.ndim != 2:
        raise ValueError(f"ratings must be a 2-d units x raters array, got shape {raw.shape}")
    if raw.dtype.kind in "fiub" and (labels is None or all(
            isinstance(lab, (int, float, np.integer, np.floating)) for lab in labels)):
        # fast path: a numeric matrix (NaN = missing)
        m = raw.astype(float)
        if labels is not None:
            present = m[~np.isnan(m)]
            bad = np.unique(present[~np.isin(present, np.asarray(labels, dtype=float))])
            if bad.size:
                return None, f"value {bad[0]:g} not on the scale {list(labels)}"
        return m, None
    arr = raw.astype(object)
    flat = arr.ravel()
    missing = np.array([is_missing(v) for v in flat], dtype=bool)
    present = flat[~missing]
    numeric = all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) or
                  isinstance(v, (bool, np.bool_)) for v in present)
    out = np.full(flat.shape, np.nan)
    if labels is not None:
        index = {lab: i for i, lab in enumerate(labels)}
        if numeric and all(isinstance(lab, (int, float, np.integer, np.floating)) for lab in labels):
            # numeric scale: keep the values themselves (interval distances use them); check membership
            scale = {float(lab) for lab in labels}
            bad = sorted({float(v) for v in present if float(v) not in scale})
            if bad:
                return None, f"value {bad[0]:g} not on the scale {list(labels)}"
            out[~missing] = [float(v) for v in present]
        else:
            bad = sorted({str(v) for v in present if v not in index})
            if bad:
                return None, f"value {bad[0]!r} not on the scale {list(labels)}"
            out[~missing] = [index[v] for v in present]
    elif numeric:
        out[~missing] = [float(v) for v in present]
    else:
        observed = sorted({v for v in present}, key=str)
        index = {lab: i for i, lab in enumerate(observed)}
        out[~missing] = [index[v] for v in present]
    return out.reshape(arr.shape), None


def _drop_empty(m: np.ndarray) -> np.ndarray:
    """Drop raters (columns) with no rating at all and units (rows) with no rating."""
    m = m[:, ~np.all(np.isnan(m), axis=0)]
    return m[~np.all(np.isnan(m), axis=1)] if m.size else m


def krippendorff_alpha(ratings, level: str = "nominal", labels: Sequence | None = None) -> StatResult:
    """Krippendorff's alpha for any number of raters with missing ratings.

    alpha = 1 - D_o / D_e, with D_o the observed disagreement inside units and D_e the disagreement expected from
    all pairable values, both taken from the coincidence matrix o_ck = sum_u (number of c-k pairs in u)/(m_u - 1)
    and the level's distance metric: nominal (c != k), ordinal (rank distance through the marginal frequencies),
    interval ((c - k)^2), ratio (((c - k)/(c + k))^2). Krippendorff (2011), "Computing Krippendorff's Alpha-
    Reliability". Computed here in O(units) (see _alpha_from_coincidences); the tests check it equals the
    `krippendorff` package (Castro 2017) and hand-computed values.

    ratings: units x raters, NaN/None missing. Only units with two or more ratings are pairable (a unit rated once is
    dropped, a missing rating is never a category). labels: the scale; for text labels its order is the ordinal order
    (without labels, text is only allowed at the nominal level). alpha can be negative (systematic disagreement):
    it is never clipped to 0.

    Undefined -> None with a reason: fewer than two raters; no unit rated twice; every pairable value equal
    (D_e = 0); a value not on ``labels``; ordinal/ratio with more than MAX_ORDINAL_VALUES distinct values.
    n = pairable units.
    """
    if level not in LEVELS:
        raise ValueError(f"level must be one of {LEVELS}, not {level!r}")
    arr = np.asarray(ratings)
    if level != "nominal" and labels is None and arr.size and arr.dtype.kind not in "fiub" and any(
            isinstance(v, str) for v in arr.astype(object).ravel()):
        raise ValueError("ordinal/interval/ratio alpha on text labels needs labels= (the ordered scale)")
    m, reason = _matrix(ratings, labels)
    if m is None:
        return StatResult(None, 0, reason)
    m = _drop_empty(m)
    if m.ndim != 2 or m.shape[1] < 2:
        return StatResult(None, 0, "fewer than two raters with ratings")
    counts = np.sum(~np.isnan(m), axis=1)
    pairable = m[counts >= 2]
    n = int(pairable.shape[0])
    if n == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    values = np.unique(pairable[~np.isnan(pairable)])
    if values.size < 2:
        return StatResult(None, n, "all pairable ratings are equal: expected disagreement is 0")
    if level == "ratio" and np.any(values < 0):
        return StatResult(None, n, "ratio level needs non-negative values")
    if level in ("ordinal", "ratio") and values.size > MAX_ORDINAL_VALUES:
        return StatResult(None, n, f"{values.size} distinct values: the {level} metric needs a values x values "
                                   f"coincidence matrix (limit {MAX_ORDINAL_VALUES}); use the interval level")
    value = _alpha_from_coincidences(pairable, values, level)
    return StatResult(float(value), n)


MAX_ORDINAL_VALUES = 2000


def _alpha_from_coincidences(pairable: np.ndarray, values: np.ndarray, level: str) -> float:
    """Krippendorff's alpha of a units x raters matrix whose every unit has >= 2 ratings.

    Same definition as the `krippendorff` package (which the tests use as the reference), computed in O(units):
    that package builds a units x values x values array, which does not fit for 200k units with fractional judge
    scores. nominal and interval use the closed forms (sums of squares); ordinal and ratio the sparse coincidence
    matrix o_ck = sum_u n_uc n_uk / (m_u - 1) (minus the diagonal self-pairs).
    """
    sparse = scipy_module("scipy.sparse")

    present = ~np.isnan(pairable)
    unit_index = np.nonzero(present)[0]
    flat = pairable[present]
    m_u = present.sum(axis=1).astype(float)
    n = float(flat.size)
    if level == "interval":
        unit_means = np.nansum(pairable, axis=1) / m_u
        ss_u = np.bincount(unit_index, weights=(flat - unit_means[unit_index]) ** 2, minlength=pairable.shape[0])
        d_o = float(np.sum(2.0 * m_u * ss_u / (m_u - 1.0))) / n
        d_e = 2.0 * float(np.sum((flat - flat.mean()) ** 2)) / (n - 1.0)
        return 1.0 - d_o / d_e
    codes = np.searchsorted(values, flat)
    counts = sparse.csr_matrix((np.ones(flat.size), (unit_index, codes)), shape=(pairable.shape[0], values.size))
    n_c = np.asarray(counts.sum(axis=0)).ravel()
    if level == "nominal":
        same = np.asarray(counts.multiply(counts).sum(axis=1)).ravel()
        d_o = float(np.sum((m_u ** 2 - same) / (m_u - 1.0))) / n
        d_e = (n ** 2 - float(np.sum(n_c ** 2))) / (n * (n - 1.0))
        return 1.0 - d_o / d_e
    weighted = sparse.diags(1.0 / (m_u - 1.0)) @ counts
    o = (counts.T @ weighted).toarray() - np.diag(np.asarray(weighted.sum(axis=0)).ravel())
    if level == "ordinal":
        cum = np.cumsum(n_c)
        # delta^2_ck = (sum_{g=c..k} n_g - (n_c + n_k) / 2)^2
        lo = np.minimum.outer(np.arange(values.size), np.arange(values.size))
        hi = np.maximum.outer(np.arange(values.size), np.arange(values.size))
        between = cum[hi] - np.where(lo > 0, cum[lo - 1], 0.0)
        delta = (between - (n_c[:, None] + n_c[None, :]) / 2.0) ** 2
    else:  # ratio
        s = values[:, None] + values[None, :]
        delta = np.divide(values[:, None] - values[None, :], s, out=np.zeros_like(s), where=s != 0) ** 2
    d_o = float(np.sum(o * delta))
    d_e = float(np.sum(np.outer(n_c, n_c) * delta)) / (n - 1.0)
    return 1.0 - d_o / d_e


def _paired(x: Sequence, y: Sequence) -> tuple[np.ndarray, np.ndarray]:
    xa = np.asarray(x, dtype=float)
    ya = np.asarray(y, dtype=float)
    if xa.shape != ya.shape or xa.ndim != 1:
        raise ValueError(f"x and y must be 1-d and the same length, got {xa.shape} and {ya.shape}")
    keep = ~(np.isnan(xa) | np.isnan(ya))
    return xa[keep], ya[keep]


def _correlation(x: Sequence, y: Sequence, method: str) -> StatResult:
    xa, ya = _paired(x, y)
    n = int(xa.size)
    if n < 2:
        return StatResult(None, n, "fewer than two complete pairs")
    if np.all(xa == xa[0]):
        return StatResult(None, n, "x is constant (all tied): correlation undefined")
    if np.all(ya == ya[0]):
        return StatResult(None, n, "y is constant (all tied): correlation undefined")
    sps = scipy_module("scipy.stats")

    if method == "kendall_tau_b":
        value = sps.kendalltau(xa, ya, variant="b").statistic
    elif method == "spearman":
        value = _pearson(sps.rankdata(xa), sps.rankdata(ya))
    else:
        value = _pearson(xa, ya)
    return StatResult(float(value), n)


def _pearson(xa: np.ndarray, ya: np.ndarray) -> float:
    """r = sum(dx dy) / sqrt(sum(dx^2) sum(dy^2)), clipped to [-1, 1] (neither side constant). Computed here, not by
    scipy.stats.pearsonr / spearmanr (their per-call overhead dominated the build on thousands of small groups);
    tests check both equal scipy's."""
    dx, dy = xa - xa.mean(), ya - ya.mean()
    return float(np.clip((dx * dy).sum() / np.sqrt((dx * dx).sum() * (dy * dy).sum()), -1.0, 1.0))


def kendall_tau_b(x: Sequence, y: Sequence) -> StatResult:
    """Kendall's tau-b between two paired score lists, ties adjusted.

    tau_b = (P - Q) / sqrt((P + Q + T_x) (P + Q + T_y)), P/Q concordant/discordant pairs, T_x/T_y pairs tied only in
    x/only in y (Kendall 1945). Symmetric in x and y. Computed by scipy.stats.kendalltau(variant="b").
    Pairs with a missing side are dropped. Undefined -> None: fewer than two pairs; x or y constant. n = pairs used.
    """
    return _correlation(x, y, "kendall_tau_b")


def spearman_rho(x: Sequence, y: Sequence) -> StatResult:
    """Spearman's rank correlation: Pearson's r of the average ranks (ties share their mean rank).

    Ranks by scipy.stats.rankdata, r by _pearson (equal to scipy.stats.spearmanr). Missing pairs dropped;
    undefined -> None (fewer than two pairs, a constant side).
    """
    return _correlation(x, y, "spearman")


def pearson_r(x: Sequence, y: Sequence) -> StatResult:
    """Pearson's product-moment correlation r = cov(x, y) / (sd_x sd_y) (equal to scipy.stats.pearsonr).

    Missing pairs dropped; undefined -> None (fewer than two pairs, a constant side).
    """
    return _correlation(x, y, "pearson")


def icc1(ratings) -> ICC1Result:
    """One-way random-effects ICC: ICC(1,1) (one rater) and ICC(1,k) (mean of the k raters).

    With n units, k raters per unit, MS_B = k * sum_i (mean_i - grand)^2 / (n - 1) (between units) and
    MS_W = sum_ij (x_ij - mean_i)^2 / (n (k - 1)) (within units):
        ICC(1,1) = (MS_B - MS_W) / (MS_B + (k - 1) MS_W),   ICC(1,k) = (MS_B - MS_W) / MS_B.
    Shrout & Fleiss (1979), case 1; McGraw & Wong (1996) ICC(1) / ICC(k). One-way is the right model when rater
    positions are not fixed people (HANNA, USR): the rater is not a factor. Values can be negative (more spread
    inside units than between them).

    ratings: units x raters, NaN missing. Raters with no rating are dropped; units missing any remaining rater are
    dropped (listwise, the balanced design the formula needs). Undefined -> None with reason: fewer than two
    raters or two complete units; no variance at all (every rating equal); MS_B = 0 for ICC(1,k). n = units used.
    """
    m, reason = _matrix(ratings)
    if m is None:
        return ICC1Result(StatResult(None, 0, reason), StatResult(None, 0, reason), 0)
    m = m[:, ~np.all(np.isnan(m), axis=0)] if m.size else m
    k = int(m.shape[1]) if m.ndim == 2 else 0
    complete = m[~np.any(np.isnan(m), axis=1)] if k else m
    n = int(complete.shape[0]) if k else 0
    if k < 2:
        r = StatResult(None, n, "fewer than two raters with ratings")
        return ICC1Result(r, r, k)
    if n < 2:
        r = StatResult(None, n, "fewer than two units rated by every rater")
        return ICC1Result(r, r, k)
    unit_means = complete.mean(axis=1)
    grand = complete.mean()
    ms_b = k * float(np.sum((unit_means - grand) ** 2)) / (n - 1)
    ms_w = float(np.sum((complete - unit_means[:, None]) ** 2)) / (n * (k - 1))
    return icc1_from_mean_squares(ms_b, ms_w, n, k)


def icc1_from_mean_squares(ms_b: float, ms_w: float, n: int, k: int) -> ICC1Result:
    """ICC(1,1) = (MS_B - MS_W) / (MS_B + (k - 1) MS_W) and ICC(1,k) = (MS_B - MS_W) / MS_B from the one-way ANOVA
    mean squares of n complete units x k raters (Shrout & Fleiss 1979, case 1); the last step of icc1 and of
    unit_patterns.icc1_from_sums. Undefined -> None with reason: MS_B + (k - 1) MS_W <= 0 (every rating equal) for
    both; MS_B <= 0 for ICC(1,k)."""
    denom_single = ms_b + (k - 1) * ms_w
    if denom_single <= 0:
        r = StatResult(None, n, "all ratings equal: no variance")
        return ICC1Result(r, r, k)
    single = StatResult((ms_b - ms_w) / denom_single, n)
    if ms_b <= 0:
        average = StatResult(None, n, "no variance between units (MS_B = 0): ICC(1,k) undefined")
    else:
        average = StatResult((ms_b - ms_w) / ms_b, n)
    return ICC1Result(single, average, k)


def _category_counts(ratings, labels: Sequence | None) -> tuple[np.ndarray | None, int, str | None]:
    """Units x categories count table n_ij (units with no rating dropped); q = number of categories."""
    m, reason = _matrix(ratings, labels)
    if m is None:
        return None, 0, reason
    if labels is not None:
        cats = np.array([float(lab) for lab in labels]) if np.isfinite(
            np.nanmax(m) if np.any(~np.isnan(m)) else 0) and all(
            isinstance(lab, (int, float, np.integer, np.floating)) for lab in labels) else np.arange(len(labels),
                                                                                                   dtype=float)
    else:
        cats = np.unique(m[~np.isnan(m)])
    table = np.stack([np.sum(m == c, axis=1) for c in cats], axis=1) if cats.size else np.zeros((m.shape[0], 0))
    table = table[table.sum(axis=1) > 0]
    return table.astype(float), int(cats.size), None


def percent_agreement(ratings, labels: Sequence | None = None) -> StatResult:
    """Observed pairwise agreement: mean over units of (agreeing rater pairs / rater pairs).

    P_i = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1)), P = mean_i P_i over units with n_i >= 2 (Fleiss 1971's P-bar).
    With two raters this is the exact-agreement rate. Undefined -> None: no unit rated twice.
    """
    table, _, reason = _category_counts(ratings, labels)
    if table is None:
        return StatResult(None, 0, reason)
    table = table[table.sum(axis=1) >= 2]
    if table.shape[0] == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    n_i = table.sum(axis=1)
    p_i = (table * (table - 1)).sum(axis=1) / (n_i * (n_i - 1))
    return StatResult(float(p_i.mean()), int(table.shape[0]))


def fleiss_kappa(ratings, labels: Sequence | None = None) -> StatResult:
    """Fleiss' kappa for any number of raters per unit (categories treated as nominal).

    kappa = (P - P_e) / (1 - P_e); P = mean_i sum_j n_ij (n_ij - 1) / (n_i (n_i - 1)) over units with n_i >= 2;
    p_j = sum_i n_ij / sum_i n_i; P_e = sum_j p_j^2 (Fleiss 1971; unequal n_i as in Fleiss, Levin & Paik 2003).
    labels: the scale (default: categories observed). Undefined -> None: no unit rated twice; every rating in one
    category (P_e = 1); a value not on the scale. n = units used.
    """
    table, _, reason = _category_counts(ratings, labels)
    if table is None:
        return StatResult(None, 0, reason)
    table = table[table.sum(axis=1) >= 2]
    n = int(table.shape[0])
    if n == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    n_i = table.sum(axis=1)
    p_bar = float(((table * (table - 1)).sum(axis=1) / (n_i * (n_i - 1))).mean())
    p_j = table.sum(axis=0) / table.sum()
    p_e = float(np.sum(p_j ** 2))
    if p_e >= 1.0 - 1e-15:
        return StatResult(None, n, "all ratings in one category: chance agreement is 1, kappa undefined")
    return StatResult((p_bar - p_e) / (1.0 - p_e), n)


def gwet_ac1(ratings, labels: Sequence | None = None) -> StatResult:
    """Gwet's AC1 for any number of raters (nominal categories), robust to skewed prevalence.

    AC1 = (p_a - p_e) / (1 - p_e); p_a = mean over units with r_i >= 2 of sum_k r_ik (r_ik - 1) / (r_i (r_i - 1));
    p_e = 1/(q - 1) * sum_k pi_k (1 - pi_k), pi_k = mean over rated units of r_ik / r_i, q = number of categories
    (the scale's, when labels are given: binary flags q = 2). Gwet (2008), Br J Math Stat Psychol 61:29-48;
    Gwet, Handbook of Inter-Rater Reliability (4th ed.), ch. 4.

    Undefined -> None with reason: fewer than two categories on the scale; no unit rated twice; every rating in one
    category (the formula gives 1, but a statistic built on a constant flag says nothing: reported NULL, not 1).
    """
    table, q, reason = _category_counts(ratings, labels)
    if table is None:
        return StatResult(None, 0, reason)
    if q < 2:
        return StatResult(None, 0, "fewer than two categories")
    r_i = table.sum(axis=1)
    pi_k = (table / r_i[:, None]).mean(axis=0)
    pairable = table[r_i >= 2]
    n = int(pairable.shape[0])
    if n == 0:
        return StatResult(None, 0, "no unit has two or more ratings")
    if np.count_nonzero(table.sum(axis=0)) < 2:
        return StatResult(None, n, "all ratings in one category: chance-corrected agreement undefined")
    rp = pairable.sum(axis=1)
    p_a = float(((pairable * (pairable - 1)).sum(axis=1) / (rp * (rp - 1))).mean())
    p_e = float(np.sum(pi_k * (1 - pi_k)) / (q - 1))
    return StatResult((p_a - p_e) / (1 - p_e), n)


def mean_pairwise_spearman(ratings) -> StatResult:
    """Mean of Spearman's rho over every pair of raters (columns), each on the units both rated.

    Pairs whose rho is undefined (fewer than two shared units, a constant rater) are left out; n = rater pairs
    averaged. Undefined -> None when no pair has a defined rho.
    """
    m, reason = _matrix(ratings)
    if m is None:
        return StatResult(None, 0, reason)
    pairs = [(m[:, i], m[:, j]) for i in range(m.shape[1]) for j in range(i + 1, m.shape[1])]
    return mean_of_pair_rhos(correlations_many(pairs, methods=("spearman",))["spearman"])  # spearman_rho per pair


def mean_of_pair_rhos(rhos) -> StatResult:
    """Mean of the defined Spearman rhos of rater pairs (StatResults, in pair order); n = pairs averaged. None
    defined -> None with "no rater pair with a defined Spearman rho" and the first pair's reason. The last step of
    mean_pairwise_spearman and of its pattern-count form (reliability._mean_pairwise_spearman)."""
    values, reasons = [], []
    for r in rhos:
        if r.value is None:
            reasons.append(r.reason)
        else:
            values.append(r.value)
    if not values:
        return StatResult(None, 0, "no rater pair with a defined Spearman rho" + (f" ({reasons[0]})" if reasons
                                                                                 else ""))
    return StatResult(float(np.mean(values)), len(values))


def average_ranks(scores: Sequence, higher_is_better: bool = True) -> np.ndarray:
    """Ranks 1..n of the scores, ties sharing their average rank (rank 1 = best); NaN stays NaN.

    A tie run starting after b smaller values and holding c values gets 0.5 * (b + (b + c) + 1), exactly the
    half-integers of scipy.stats.rankdata(method="average") (computed here: rankdata's per-call overhead dominated
    fct_coder_set_alpha and fct_system_rankings; tests compare the two on random tied scores)."""
    a = np.asarray(scores, dtype=float)
    out = np.full(a.shape, np.nan)
    keep = ~np.isnan(a)
    v = -a[keep] if higher_is_better else a[keep]
    if v.size:
        order = np.argsort(v, kind="stable")
        sv = v[order]
        starts = np.flatnonzero(np.concatenate([[True], sv[1:] != sv[:-1]]))
        run = np.diff(np.append(starts, sv.size))
        ranks = np.empty(v.size)
        ranks[order] = np.repeat(0.5 * ((starts + run) + starts + 1), run)
        out[keep] = ranks
    return out


def rank_based_alpha(system_means, level: str = "ordinal", higher_is_better: bool = True) -> StatResult:
    """Krippendorff's alpha on system ranks: each rater's (column's) system mean scores become ranks (ties averaged),
    then alpha over the systems x raters rank matrix (Sottana et al. 2023, Tables 2 and 7).

    system_means: systems x raters, NaN where a rater scored no response of a system (its rank is missing).
    Same NULL rules as krippendorff_alpha, plus fewer than two systems -> None; n = systems ranked by at least two
    raters.
    """
    m = np.asarray(system_means, dtype=float)
    if m.ndim != 2:
        raise ValueError("system_means must be systems x raters")
    if m.shape[0] < 2:
        return StatResult(None, int(m.shape[0]), "fewer than two systems: nothing to rank")
    ranks = np.column_stack([average_ranks(m[:, j], higher_is_better) for j in range(m.shape[1])]) \
        if m.shape[1] else m
    return krippendorff_alpha(ranks, level)


# =====================================================================================================================
# The three correlations over many small samples at once
#
# The judge-human marts ask for thousands of correlations over small groups (HANNA: a few hundred stories per
# criterion, eleven systems); one scipy call each cost about 1 ms of overhead, far more than the arithmetic. These
# take a list of (x, y) samples and compute all of them with a few numpy passes over the concatenated samples, with
# the same definitions, the same NULL rules and reasons as kendall_tau_b / spearman_rho / pearson_r, and the same
# values, bit for bit: tau-b from exact integer pair counts through scipy's final expression, Spearman's average
# ranks exactly as scipy.stats.rankdata (half-integers, exact), then _pearson per sample (a few microseconds; its
# sums in the same order as before). Tests compare them with scipy on random samples with ties, constant sides and
# n < 2.
# =====================================================================================================================

CORRELATIONS = ("kendall_tau_b", "spearman", "pearson")
_BATCH_ELEMENTS = 1 << 21  # samples are batched up to ~2M pairs at a time (memory stays ~100 MB)


def correlations_many(samples: Sequence[tuple[Sequence, Sequence]],
                      methods: Sequence[str] = CORRELATIONS) -> dict[str, list[StatResult]]:
    """kendall_tau_b, spearman_rho and pearson_r (``methods``: any of CORRELATIONS) of every (x, y) sample, in the
    order given: ``{method: [StatResult per sample]}``, each equal to the one-sample function's result.

    Kendall tau-b: P - Q = tot - T_x - T_y + T_xy - 2 Q, tau_b = (P - Q) / sqrt(tot - T_x) / sqrt(tot - T_y) with
    tot = n(n-1)/2, T_x / T_y the pairs tied in x / y, T_xy in both, Q the discordant pairs (Kendall 1945; the
    expression and clip to [-1, 1] of scipy.stats.kendalltau, variant b). Ranks and ties are counted for every
    sample at once; Q per sample by scipy's compiled counter (_discordant_by_group).
    Spearman: Pearson's r of the average ranks, rank = (#values below + #values at or below + 1) / 2 (as
    scipy.stats.rankdata, method "average"), r by _pearson. Pearson: _pearson.

    Each sample: pairs with a missing side dropped; undefined -> None with the one-sample reasons (fewer than two
    complete pairs; x constant; y constant, checked in that order). n = pairs used.
    """
    unknown = [m for m in methods if m not in CORRELATIONS]
    if unknown:
        raise ValueError(f"unknown correlation {unknown[0]!r} (known: {', '.join(CORRELATIONS)})")
    out: dict[str, list[StatResult | None]] = {m: [None] * len(samples) for m in methods}
    xs, ys, which = [], [], []
    for i, (x, y) in enumerate(samples):
        xa, ya = _paired(x, y)
        n = int(xa.size)
        reason = None
        if n < 2:
            reason = "fewer than two complete pairs"
        elif np.all(xa == xa[0]):
            reason = "x is constant (all tied): correlation undefined"
        elif np.all(ya == ya[0]):
            reason = "y is constant (all tied): correlation undefined"
        if reason is not None:
            for m in methods:
                out[m][i] = StatResult(None, n, reason)
            continue
        xs.append(xa)
        ys.append(ya)
        which.append(i)
    start = 0
    while start < len(which):
        stop, size = start, 0
        while stop < len(which) and (stop == start or size + xs[stop].size <= _BATCH_ELEMENTS):
            size += xs[stop].size
            stop += 1
        lengths = np.array([a.size for a in xs[start:stop]], dtype=np.int64)
        g = np.repeat(np.arange(stop - start, dtype=np.int64), lengths)
        x = np.concatenate(xs[start:stop])
        y = np.concatenate(ys[start:stop])
        bounds = np.concatenate([[0], np.cumsum(lengths)])
        if "kendall_tau_b" in methods or "spearman" in methods:
            tau, rx, ry = _tau_b_grouped(g, x, y, lengths)
        if "kendall_tau_b" in methods:
            for k, i in enumerate(which[start:stop]):
                out["kendall_tau_b"][i] = StatResult(float(tau[k]), int(lengths[k]))
        if "spearman" in methods:
            for k, i in enumerate(which[start:stop]):
                lo, hi = bounds[k], bounds[k + 1]
                out["spearman"][i] = StatResult(_pearson(rx[lo:hi], ry[lo:hi]), int(lengths[k]))
        if "pearson" in methods:
            for k, i in enumerate(which[start:stop]):
                out["pearson"][i] = StatResult(_pearson(xs[start + k], ys[start + k]), int(lengths[k]))
        start = stop
    return out


def _runs(g: np.ndarray, *keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start positions and lengths of the runs of equal (g, *keys) in arrays already sorted on them."""
    change = np.empty(g.size, dtype=bool)
    change[0] = True
    change[1:] = g[1:] != g[:-1]
    for k in keys:
        change[1:] |= k[1:] != k[:-1]
    starts = np.flatnonzero(change)
    return starts, np.diff(np.append(starts, g.size))


def _tied_pairs(g_of_run: np.ndarray, run_lengths: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group: sum over its runs of c (c - 1) / 2 (exact int64)."""
    out = np.zeros(n_groups, dtype=np.int64)
    np.add.at(out, g_of_run, run_lengths * (run_lengths - 1) // 2)
    return out


def _tau_b_grouped(g: np.ndarray, x: np.ndarray, y: np.ndarray, lengths: np.ndarray,
                   discordant=None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Kendall tau-b per group (g sorted, non-decreasing; no NaN; neither side constant within a group), and the
    average ranks of x and of y inside their group (_average_ranks_of_runs; the sorts are shared).

    ``discordant``: the counter of discordant pairs, (g, x ranks, y ranks) in (g, x, y) order -> per-group counts;
    default _discordant_by_group (scipy's compiled counter, one call a group)."""
    n_groups = lengths.size
    # y as dense ranks over (group, y): increasing with the group, so pairs across groups are never inversions
    group_start = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    oy = np.lexsort((y, g))
    starts, run = _runs(g[oy], y[oy])
    y_tie = _tied_pairs(g[oy][starts], run, n_groups)
    y_rank = np.empty(y.size, dtype=np.int64)
    y_rank[oy] = np.repeat(np.arange(starts.size, dtype=np.int64), run)
    y_avg = np.empty(y.size, dtype=float)
    y_avg[oy] = _average_ranks_of_runs(starts, run, group_start[g[oy][starts]])
    o = np.lexsort((y_rank, x, g))
    gs, xs, yr = g[o], x[o], y_rank[o]
    starts, run = _runs(gs, xs)
    x_tie = _tied_pairs(gs[starts], run, n_groups)
    x_rank = np.repeat(np.arange(starts.size, dtype=np.int64), run)
    x_avg = np.empty(x.size, dtype=float)
    x_avg[o] = _average_ranks_of_runs(starts, run, group_start[gs[starts]])
    starts, run = _runs(gs, xs, yr)
    xy_tie = _tied_pairs(gs[starts], run, n_groups)
    dis = (discordant or _discordant_by_group)(gs, x_rank, yr, lengths)
    tot = lengths * (lengths - 1) // 2
    con_minus_dis = tot - x_tie - y_tie + xy_tie - 2 * dis
    tau = con_minus_dis / np.sqrt(tot - x_tie) / np.sqrt(tot - y_tie)
    return np.minimum(1.0, np.maximum(-1.0, tau)), x_avg, y_avg


def _discordant_by_group(g: np.ndarray, x_rank: np.ndarray, y_rank: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Discordant pairs per group, the arrays in (g, x, y) order: scipy's compiled Fenwick-tree counter
    (scipy.stats._stats._kendall_dis, what scipy.stats.kendalltau itself calls; scipy is pinned) on each group's
    slice, y ranks made 1-based inside the group. Without it, the numpy merge count _inversions_by_group (same
    counts, ~20x slower)."""
    try:
        _kendall_dis = scipy_module("scipy.stats._stats")._kendall_dis
    except (ImportError, AttributeError):  # pragma: no cover - a scipy without the private counter
        return _inversions_by_group(y_rank, g, lengths.size)
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    dis = np.zeros(lengths.size, dtype=np.int64)
    xr = x_rank.astype(np.intp)
    for k in range(lengths.size):
        lo, hi = bounds[k], bounds[k + 1]
        yk = y_rank[lo:hi]
        dis[k] = _kendall_dis(xr[lo:hi], (yk - yk.min() + 1).astype(np.intp))
    return dis


def _inversions_by_group(v: np.ndarray, g: np.ndarray, n_groups: int) -> np.ndarray:
    """The fallback of _discordant_by_group, in numpy only (the tests check both). Per group: pairs i < j
    (positions) with v[i] > v[j], counted by the group of j. v must be increasing across groups (every value of an
    earlier group below every value of a later one), so only pairs inside a group count.

    Bottom-up merge count: at width w the array holds sorted blocks of w; each sibling pair of blocks is merged by a
    stable sort on (pair, value), which keeps pairs in place and puts a left element before a right one of the same
    value. A right element then has before it, inside its pair, the left elements at or below its value and the
    right elements before it (its index in the right block): the rest of the left block, above it, are its
    inversions at this level."""
    n = v.size
    dis = np.zeros(n_groups, dtype=np.int64)
    if n < 2:
        return dis
    big = np.int64(v.max()) + 1
    cur, cur_g = v.astype(np.int64), g.astype(np.int64)
    position = np.arange(n, dtype=np.int64)
    w = 1
    while w < n:
        pair_start = position & ~np.int64(2 * w - 1)  # w is a power of two
        order = np.argsort((position // (2 * w)) * big + cur, kind="stable")
        came_from_right = (order - pair_start) >= w  # merged position p holds the element from position order[p]
        r = np.flatnonzero(came_from_right)
        right_index = order[r] - pair_start[r] - w
        left_size = np.minimum(w, n - pair_start[r])
        left_at_or_below = (r - pair_start[r]) - right_index
        above = left_size - left_at_or_below
        dis += np.bincount(cur_g[order[r]], weights=above, minlength=n_groups).astype(np.int64)
        cur, cur_g = cur[order], cur_g[order]
        w *= 2
    return dis


def _average_ranks_of_runs(starts: np.ndarray, run: np.ndarray, group_start: np.ndarray) -> np.ndarray:
    """Average ranks, element by element in sorted order, from the runs of equal values of a sample sorted inside
    its group: 0.5 * (#below + #at-or-below + 1), #below = the run's start minus its group's start; exactly
    scipy.stats.rankdata(method="average") (half-integers, exact in float64)."""
    below = starts - group_start
    return np.repeat(0.5 * ((below + run) + below + 1), run)


# =====================================================================================================================
# The three correlations from weighted cells
#
# At scale most (x, y) pairs repeat: a 0-2 judge score against the mean of two 0-2 human scores takes at most
# 3 x 5 values, however many responses there are. The judge-human marts therefore aggregate the pairs in SQL into
# cells (x, y, w = how many pairs hold that value) and compute the correlations from the cells, with the same
# definitions, NULL rules and reasons as kendall_tau_b / spearman_rho / pearson_r on the expanded pairs
# (np.repeat(x, w), np.repeat(y, w)). Where values are continuous (HANNA's metrics) a cell is one pair.
# =====================================================================================================================

_DENSE_CELLS = 1 << 16  # a sample's x-levels x y-levels table is counted densely up to this size (or 16 x its cells)


def correlations_from_cells(g: Sequence[int], x: Sequence[float], y: Sequence[float], w: Sequence[int],
                            n_samples: int, methods: Sequence[str] = CORRELATIONS) -> dict[str, list[StatResult]]:
    """kendall_tau_b, spearman_rho and pearson_r (``methods``: any of CORRELATIONS) of ``n_samples`` samples given
    as weighted cells: cell i says that sample g[i] (0 .. n_samples - 1) holds w[i] pairs equal to (x[i], y[i]).
    ``{method: [StatResult per sample]}``, each equal to the one-sample function's result on the expanded pairs.

    Cells may come in any order and repeat a value (they are merged); a cell with x or y NaN or w = 0 is dropped
    (a missing side). n = pairs used = the sample's sum of w. Undefined -> None with the one-sample reasons: fewer
    than two pairs; x constant; y constant (checked in that order).

    Kendall tau-b (Kendall 1945; the expression and clip of scipy.stats.kendalltau, variant b): from exact integer
    counts, tot = n(n-1)/2, T_x = sum over x values of c(c-1)/2 with c the pairs at that value (T_y alike), T_xy the
    same over (x, y) cells, Q = sum over cell pairs with x_i < x_j and y_i > y_j of w_i w_j (from the cumulated
    x-level x y-level table of counts; when that table would be large, by scipy's compiled counter on the expanded
    pairs), tau_b = (tot - T_x - T_y + T_xy - 2 Q) / sqrt(tot - T_x) / sqrt(tot - T_y): bit for bit the value of
    kendall_tau_b. Spearman: the weighted Pearson r of the average ranks, a value's rank = (#pairs below + #pairs
    at or below + 1) / 2 (scipy.stats.rankdata "average", exact half-integers). Pearson: weighted moments,
    r = sum w dx dy / sqrt(sum w dx^2 sum w dy^2), dx = x - the weighted mean, clipped to [-1, 1]. Spearman and
    Pearson equal the row-level values up to float rounding of the sums (~1e-15).
    Raises ValueError for arrays of different lengths, a negative weight, a sample index out of range or an unknown
    method.
    """
    unknown = [m for m in methods if m not in CORRELATIONS]
    if unknown:
        raise ValueError(f"unknown correlation {unknown[0]!r} (known: {', '.join(CORRELATIONS)})")
    g, x, y, w = (np.asarray(g, dtype=np.int64).ravel(), np.asarray(x, dtype=float).ravel(),
                  np.asarray(y, dtype=float).ravel(), np.asarray(w, dtype=np.int64).ravel())
    if not (g.size == x.size == y.size == w.size):
        raise ValueError(f"g, x, y and w must be the same length, got {g.size}, {x.size}, {y.size}, {w.size}")
    if (w < 0).any():
        raise ValueError("cell weights must be >= 0")
    if g.size and (g.min() < 0 or g.max() >= n_samples):
        raise ValueError("sample index out of range")
    keep = ~(np.isnan(x) | np.isnan(y)) & (w > 0)
    if not keep.all():
        g, x, y, w = g[keep], x[keep], y[keep], w[keep]
    # merge repeated values: unique cells sorted on (g, x, y) (cells given in that order are not sorted again)
    if not _sorted_on(g, x, y):
        o = np.lexsort((y, x, g))
        g, x, y, w = g[o], x[o], y[o], w[o]
    if g.size:
        starts, _ = _runs(g, x, y)
        if starts.size < g.size:
            w = np.add.reduceat(w, starts)
            g, x, y = g[starts], x[starts], y[starts]
    n = np.zeros(n_samples, dtype=np.int64)
    np.add.at(n, g, w)
    first_pair = np.concatenate([[0], np.cumsum(n)[:-1]])  # pairs of the samples before (for ranks)
    bounds = np.concatenate([[0], np.cumsum(np.bincount(g, minlength=n_samples))])
    # x levels: runs of (g, x) in cell order
    x_rank, x_level, x_levels, x_tie = _weighted_levels(g, x, w, n_samples, first_pair, None)
    # y levels: the same in (g, y) order
    y_rank, y_level, y_levels, y_tie = _weighted_levels(g, y, w, n_samples, first_pair, np.lexsort((y, g)))
    xy_tie = _tied_pairs(g, w, n_samples)

    reasons: list[str | None] = [None] * n_samples
    for k in range(n_samples):
        if n[k] < 2:
            reasons[k] = "fewer than two complete pairs"
        elif x_levels[k] == 1:
            reasons[k] = "x is constant (all tied): correlation undefined"
        elif y_levels[k] == 1:
            reasons[k] = "y is constant (all tied): correlation undefined"
    ok = np.array([r is None for r in reasons], dtype=bool)
    out: dict[str, list[StatResult]] = {}
    if "kendall_tau_b" in methods:
        dis = np.zeros(n_samples, dtype=np.int64)
        for k in np.flatnonzero(ok):
            lo, hi = bounds[k], bounds[k + 1]
            dis[k] = _discordant_cells(x_level[lo:hi], y_level[lo:hi], w[lo:hi], int(x_levels[k]),
                                       int(y_levels[k]))
        tot = n * (n - 1) // 2
        with np.errstate(divide="ignore", invalid="ignore"):
            tau = (tot - x_tie - y_tie + xy_tie - 2 * dis) / np.sqrt(tot - x_tie) / np.sqrt(tot - y_tie)
        tau = np.minimum(1.0, np.maximum(-1.0, tau))
        out["kendall_tau_b"] = [StatResult(float(tau[k]) if ok[k] else None, int(n[k]), reasons[k])
                                for k in range(n_samples)]
    if "spearman" in methods:
        rho = _weighted_pearson(g, x_rank, y_rank, w, n, n_samples)
        out["spearman"] = [StatResult(float(rho[k]) if ok[k] else None, int(n[k]), reasons[k])
                           for k in range(n_samples)]
    if "pearson" in methods:
        r = _weighted_pearson(g, x, y, w, n, n_samples)
        out["pearson"] = [StatResult(float(r[k]) if ok[k] else None, int(n[k]), reasons[k])
                          for k in range(n_samples)]
    return out


def _sorted_on(g: np.ndarray, x: np.ndarray, y: np.ndarray) -> bool:
    """True when the (g, x, y) triples are in non-decreasing lexicographic order (no NaN)."""
    dg, dx, dy = np.diff(g), np.diff(x), np.diff(y)
    return bool(np.all((dg > 0) | ((dg == 0) & ((dx > 0) | ((dx == 0) & (dy >= 0))))))


def _weighted_levels(g: np.ndarray, v: np.ndarray, w: np.ndarray, n_groups: int, first_pair: np.ndarray,
                     order: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """For cells (g, v, w) and ``order`` sorting them on (g, v) (None: they are): per cell its average rank inside
    its group (as scipy.stats.rankdata "average" on the expanded pairs) and its level (0-based dense rank of v
    inside the group); per group the number of levels and the pairs tied on v (sum of c(c-1)/2 over levels, c =
    the level's pairs)."""
    if not g.size:
        empty = np.zeros(n_groups, dtype=np.int64)
        return np.empty(0, dtype=float), np.empty(0, dtype=np.int64), empty, empty.copy()
    gs, vs, ws = (g, v, w) if order is None else (g[order], v[order], w[order])
    starts, run = _runs(gs, vs)
    c = np.add.reduceat(ws, starts)
    g_of_level = gs[starts]
    levels = np.bincount(g_of_level, minlength=n_groups).astype(np.int64)
    below = np.cumsum(c) - c - first_pair[g_of_level]
    first_level = np.concatenate([[0], np.cumsum(levels)[:-1]])
    rank = np.repeat(0.5 * ((below + c) + below + 1), run)
    level = np.repeat(np.arange(starts.size, dtype=np.int64) - first_level[g_of_level], run)
    if order is not None:  # back to the cells' order
        sorted_rank, sorted_level = rank, level
        rank, level = np.empty_like(sorted_rank), np.empty_like(sorted_level)
        rank[order], level[order] = sorted_rank, sorted_level
    return rank, level, levels, _tied_pairs(g_of_level, c, n_groups)


def _weighted_pearson(g: np.ndarray, a: np.ndarray, b: np.ndarray, w: np.ndarray, n: np.ndarray,
                      n_groups: int) -> np.ndarray:
    """Per group: sum w da db / sqrt(sum w da^2 sum w db^2), da = a - the weighted mean, clipped to [-1, 1]
    (NaN where undefined; the caller says why)."""
    wf = w.astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ma = np.bincount(g, weights=wf * a, minlength=n_groups) / n
        mb = np.bincount(g, weights=wf * b, minlength=n_groups) / n
        da, db = a - ma[g], b - mb[g]
        num = np.bincount(g, weights=wf * da * db, minlength=n_groups)
        den = np.sqrt(np.bincount(g, weights=wf * da * da, minlength=n_groups)
                      * np.bincount(g, weights=wf * db * db, minlength=n_groups))
        return np.clip(num / den, -1.0, 1.0)


def _discordant_cells(x_level: np.ndarray, y_level: np.ndarray, w: np.ndarray, n_x: int, n_y: int) -> int:
    """Discordant pairs of one sample's cells (levels 0-based, cells unique, sorted on (x, y)): sum over cells of
    w times the pairs at a lower x level and a higher y level. From the n_x x n_y table of counts cumulated over x
    (rows) and, from the right, over y (columns); a table larger than _DENSE_CELLS and 16 x the cells is not built:
    the expanded pairs go to _discordant_by_group (scipy's compiled counter) instead."""
    if n_x * n_y <= max(_DENSE_CELLS, 16 * w.size):
        m = np.zeros((n_x, n_y), dtype=np.int64)
        m[x_level, y_level] = w
        at_or_below_x_above_y = m.cumsum(axis=0)[:, ::-1].cumsum(axis=1)[:, ::-1]  # [r, c]: x <= r and y >= c
        return int((m[1:, :-1] * at_or_below_x_above_y[:-1, 1:]).sum())
    xr, yr = np.repeat(x_level, w), np.repeat(y_level, w)
    return int(_discordant_by_group(np.zeros(xr.size, dtype=np.int64), xr, yr, np.array([xr.size]))[0])
