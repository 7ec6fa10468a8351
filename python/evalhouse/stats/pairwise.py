"""Pairwise preference statistics: win rates, Bradley-Terry ratings, the length-controlled win rate and judge biases.

Short pure functions, no I/O. The preference scale is the comparisons contract's: ``p`` = P(B is better than A)
in [0, 1] (0 A wins, 0.5 tie, 1 B wins); a function about "the system" takes ``p`` already oriented so that 1
means the system won. Undefined statistics are returned as None with a reason (never 0, never an exception for
data-dependent cases); bad arguments (different lengths, values outside [0, 1]) raise ValueError.

Sources: AlpacaEval (Li et al. 2023, ``src/alpaca_eval/metrics/{winrate,helpers}.py``) for the win rate, its
standard error and the discrete win rate; Dubois et al. 2024, "Length-Controlled AlpacaEval" (arXiv 2404.04475,
``src/alpaca_eval/metrics/glm_winrate.py``) for the length-controlled win rate; Bradley & Terry 1952 and Hunter
2004 (fitted by ``choix``, Maystre & Grossglauser 2015) for ratings; Zheng et al. 2023 (FastChat, MT-Bench) for the
position-flip rule.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from evalhouse.stats import scipy_module
from evalhouse.stats.result import StatResult

__all__ = [
    "Z95", "WinRate", "BTRating", "LCWinRate", "FlipRate",
    "win_rate", "mean_with_interval", "bradley_terry", "bradley_terry_bootstrap", "length_controlled_win_rate",
    "slot_preference", "longer_preference", "flip_rate", "label_of",
]

Z95 = 1.959963984540054  # the 97.5 % quantile of the standard normal


def _prefs(values: Sequence[float]) -> np.ndarray:
    x = np.array([v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))], dtype=float)
    if x.size and (np.any(x < 0) or np.any(x > 1)):
        bad = x[(x < 0) | (x > 1)][0]
        raise ValueError(f"preference {bad!r} is outside [0, 1]")
    return x


def label_of(p: float) -> str:
    """The label of a preference: 'b' when p > 0.5, 'a' when p < 0.5, 'tie' when p == 0.5."""
    return "b" if p > 0.5 else "a" if p < 0.5 else "tie"


def mean_with_interval(values: Sequence[float]) -> StatResult:
    """Mean of values in [0, 1] (``value``), standard error sd/sqrt(n) (``se``, sd with n - 1), interval (``low``,
    ``high``) mean +- 1.96 se clipped to [0, 1].

    Missing values (None/NaN) are dropped. n = 0 -> all None ("no values"); n = 1 -> value only, se and interval None
    ("one value: no standard error"). All values equal -> se 0 and the degenerate interval [v, v].
    """
    x = _prefs(values)
    n = int(x.size)
    if n == 0:
        return StatResult(None, 0, "no values")
    mean = float(x.mean())
    if n == 1:
        return StatResult(mean, 1, "one value: no standard error")
    se = float(x.std(ddof=1) / math.sqrt(n))
    return StatResult(mean, n, low=max(0.0, mean - Z95 * se), high=min(1.0, mean + Z95 * se), se=se)


@dataclass(frozen=True)
class WinRate:
    """A system's win rate against an opponent (see ``win_rate``)."""

    win_rate: float | None
    standard_error: float | None
    low: float | None
    high: float | None
    n: int
    wins: int
    losses: int
    draws: int
    discrete_win_rate: float | None
    reason: str | None = None


def win_rate(prefs: Sequence[float]) -> WinRate:
    """Win rate of a system from its oriented preferences p_i = P(system better) in [0, 1], one per comparison.

    win_rate = (1/n) sum p_i (a tie, p = 0.5, counts half a win); standard_error = sd(p) / sqrt(n) with the n - 1
    sample standard deviation; 95 % interval = win_rate +- 1.96 standard_error, clipped to [0, 1]. wins = #(p > 0.5),
    losses = #(p < 0.5), draws = #(p = 0.5); discrete_win_rate = (wins + draws / 2) / n. These are AlpacaEval's
    ``win_rate``, ``standard_error``, ``n_wins``, ``n_wins_base``, ``n_draws`` and ``discrete_win_rate`` (its
    percentages divided by 100; its preference 1 + p).
    Edge cases: no comparisons -> every rate None ("no comparisons"); one comparison -> no standard error or
    interval ("one comparison: no standard error"). Missing values are dropped; a value outside [0, 1] raises.
    """
    x = _prefs(prefs)
    n = int(x.size)
    wins, losses, draws = int((x > 0.5).sum()), int((x < 0.5).sum()), int((x == 0.5).sum())
    if n == 0:
        return WinRate(None, None, None, None, 0, 0, 0, 0, None, "no comparisons")
    m = mean_with_interval(x)
    discrete = (wins + draws / 2) / n
    return WinRate(m.value, m.se, m.low, m.high, n, wins, losses, draws, discrete,
                   "one comparison: no standard error" if n == 1 else None)


# ---------------------------------------------------------------- Bradley-Terry


@dataclass(frozen=True)
class BTRating:
    """One system's Bradley-Terry rating (natural-log strength, mean 0 over the systems) and its interval."""

    system: Hashable
    rating: float | None
    low: float | None = None
    high: float | None = None
    n_boot_used: int = 0
    reason: str | None = None


def _win_matrix(comparisons, systems: list) -> np.ndarray:
    index = {s: i for i, s in enumerate(systems)}
    w = np.zeros((len(systems), len(systems)))
    for a, b, p in comparisons:
        w[index[b], index[a]] += p
        w[index[a], index[b]] += 1.0 - p
    return w


def _strongly_connected(w: np.ndarray) -> bool:
    """Every system reaches every other through 'beat at least fractionally' edges (the MLE exists: Hunter 2004)."""
    k = w.shape[0]
    adj = w > 0
    for m in (adj, adj.T):
        seen = {0}
        stack = [0]
        while stack:
            i = stack.pop()
            for j in np.nonzero(m[i])[0]:
                if int(j) not in seen:
                    seen.add(int(j))
                    stack.append(int(j))
        if len(seen) < k:
            return False
    return True


def bradley_terry(comparisons: Sequence[tuple[Hashable, Hashable, float]],
                  systems: Sequence[Hashable] | None = None) -> list[BTRating]:
    """Bradley-Terry maximum-likelihood ratings from comparisons (system_a, system_b, p = P(B better)).

    Model: P(i beats j) = exp(r_i) / (exp(r_i) + exp(r_j)); ratings are natural-log strengths with mean 0. Each
    comparison adds p to "B beat A" and 1 - p to "A beat B" (a tie is half a win each way, a judge's probability a
    fractional win) in the win matrix W; the MLE is fitted by ``choix.ilsr_pairwise_dense(W)`` (iterative Luce
    spectral ranking, Maystre & Grossglauser 2015; the same optimum as Hunter's 2004 MM algorithm). A rating
    difference d means P(win) = 1 / (1 + exp(-d)).
    Edge cases: fewer than two systems -> None ("fewer than two systems"); a comparison graph that is not strongly
    connected (some system never lost, never won, or a group never met the rest) has no finite MLE -> every
    rating None with that reason. A comparison of a system with itself raises ValueError.
    """
    import choix

    comparisons = [(a, b, float(p)) for a, b, p in comparisons]
    for a, b, p in comparisons:
        if a == b:
            raise ValueError(f"a comparison of system {a!r} with itself")
        if not 0 <= p <= 1:
            raise ValueError(f"preference {p!r} is outside [0, 1]")
    systems = list(systems) if systems is not None else sorted({s for a, b, _ in comparisons for s in (a, b)}, key=str)
    if len(systems) < 2:
        return [BTRating(s, None, reason="fewer than two systems") for s in systems]
    w = _win_matrix(comparisons, systems)
    if not _strongly_connected(w):
        return [BTRating(s, None, reason="comparison graph not strongly connected: no finite maximum-likelihood rating")
                for s in systems]
    params = choix.ilsr_pairwise_dense(w, alpha=0.0, max_iter=1000, tol=1e-10)
    params = params - params.mean()
    return [BTRating(s, float(r)) for s, r in zip(systems, params)]


def bradley_terry_bootstrap(comparisons: Sequence[tuple[Hashable, Hashable, Hashable, float]],
                            n_boot: int = 200, seed: int = 0, level: float = 0.95) -> list[BTRating]:
    """Bradley-Terry ratings with percentile-bootstrap intervals, resampling items (clusters of comparisons).

    ``comparisons`` = (item, system_a, system_b, p). The point estimate is ``bradley_terry`` on all comparisons.
    Each of ``n_boot`` resamples draws the distinct items with replacement (numpy ``default_rng(seed)``) and keeps
    every comparison of each drawn item (as often as it was drawn), refits, and the interval is the
    (1 - level)/2 and (1 + level)/2 quantiles of each system's resampled ratings (Efron & Tibshirani 1993, ch. 13).
    Items are the resampling unit because the comparisons of one item share its difficulty. A resample whose
    comparison graph is not strongly connected has no finite MLE and is skipped; ``n_boot_used`` counts the
    resamples used.
    Edge cases: point estimate undefined -> as ``bradley_terry``; fewer than 2 items or fewer than 20 usable
    resamples -> rating only, interval None with the reason.
    """
    import choix

    rows = [(i, a, b, float(p)) for i, a, b, p in comparisons]
    systems = sorted({s for _, a, b, _ in rows for s in (a, b)}, key=str)
    point = bradley_terry([(a, b, p) for _, a, b, p in rows], systems)
    if point[0].rating is None:
        return point
    items = sorted({r[0] for r in rows}, key=str)
    if len(items) < 2:
        return [BTRating(r.system, r.rating, reason="fewer than 2 items: no interval") for r in point]
    s_index = {s: k for k, s in enumerate(systems)}
    i_index = {it: k for k, it in enumerate(items)}
    ia = np.array([s_index[r[1]] for r in rows])
    ib = np.array([s_index[r[2]] for r in rows])
    item = np.array([i_index[r[0]] for r in rows])
    p = np.array([r[3] for r in rows])
    k = len(systems)
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(n_boot):
        times = np.bincount(rng.integers(0, len(items), len(items)), minlength=len(items))[item]
        w = np.zeros((k, k))
        np.add.at(w, (ib, ia), times * p)
        np.add.at(w, (ia, ib), times * (1 - p))
        if _strongly_connected(w):
            params = choix.ilsr_pairwise_dense(w, alpha=0.0, max_iter=1000, tol=1e-10)
            draws.append(params - params.mean())
    if len(draws) < 20:
        return [BTRating(r.system, r.rating, n_boot_used=len(draws),
                         reason=f"{len(draws)} of {n_boot} resamples had a finite rating: no interval") for r in point]
    lo, hi = np.quantile(np.array(draws), [(1 - level) / 2, (1 + level) / 2], axis=0)
    return [BTRating(r.system, r.rating, float(lo[j]), float(hi[j]), len(draws)) for j, r in enumerate(point)]


# ---------------------------------------------------------------- length-controlled win rate


@dataclass(frozen=True)
class LCWinRate:
    """Length-controlled win rate and the fitted GLM coefficients (None when not fitted)."""

    value: float | None
    n: int
    inputs: str | None  # 'length+difficulty' or 'length only'
    coef_length: float | None = None
    coef_difficulty: float | None = None
    coef_bias: float | None = None
    reason: str | None = None


def _logistic(x):
    return np.exp(-np.logaddexp(0, -x))


def _fit_soft_logistic(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Maximum-likelihood weights of a logistic model without intercept for soft targets y in [0, 1].

    Minimises -sum[y log s(x w) + (1 - y) log(1 - s(x w))] with its gradient (scipy L-BFGS-B).
    """
    minimize = scipy_module("scipy.optimize").minimize

    def loss(w):
        z = x @ w
        # log s(z) = -logaddexp(0, -z), log(1 - s(z)) = -logaddexp(0, z)
        value = float(np.sum(y * np.logaddexp(0, -z) + (1 - y) * np.logaddexp(0, z)))
        grad = x.T @ (_logistic(z) - y)
        return value, grad

    res = minimize(loss, np.zeros(x.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 1000, "gtol": 1e-10})
    return res.x


def length_controlled_win_rate(prefs: Sequence[float], len_system: Sequence[float], len_baseline: Sequence[float],
                               difficulty: Sequence[float] | None = None, min_n: int = 20) -> LCWinRate:
    """AlpacaEval's length-controlled win rate of a system against a baseline (Dubois et al. 2024, GLM
    ``length_controlled_v1`` in ``glm_winrate.py``), our implementation.

    Per comparison i: p_i = P(system better) in [0, 1]; delta_i = len_baseline_i - len_system_i (characters);
    s_i = delta_i / sd(delta) (sd with n - 1); d_i = the item's instruction difficulty. Fit the logistic GLM
    P(system better) = sigmoid(w_len tanh(s_i) + w_diff d_i + w_bias) by maximum likelihood with soft targets p_i,
    then LC = (1/n) sum sigmoid(w_diff d_i + w_bias): the win rate predicted had both answers the same length.
    Differences from the published figure: AlpacaEval adds the baseline's verbose and concise variants against the
    baseline as regularising rows (weight 0.1 each; ``df_gamed.csv``, not available to us) and chooses an L1 penalty
    by 5-fold cross-validation; we fit the unregularised, unpenalised model. Without ``difficulty`` (any None) the
    w_diff term is left out (inputs 'length only'): LC is then sigmoid(w_bias), and the instructions' difficulty
    is not separated from length (the tests measure the cost on AlpacaEval data).
    Edge cases: fewer than ``min_n`` complete comparisons -> None ("fewer than 20 comparisons"); all length
    differences equal (sd 0) -> None ("no variation in length difference"); all p_i equal to 0 or all to 1 -> None
    (the GLM has no finite fit). Bad lengths (different sizes) raise ValueError.
    """
    p = np.asarray(prefs, dtype=float)
    ls = np.asarray(len_system, dtype=float)
    lb = np.asarray(len_baseline, dtype=float)
    if not (p.shape == ls.shape == lb.shape):
        raise ValueError("prefs, len_system and len_baseline must have the same length")
    d = None
    if difficulty is not None:
        d = np.array([np.nan if v is None else float(v) for v in difficulty])
        if d.shape != p.shape:
            raise ValueError("difficulty must have the same length as prefs")
    keep = ~(np.isnan(p) | np.isnan(ls) | np.isnan(lb))
    inputs = "length+difficulty" if d is not None and not np.isnan(d[keep]).any() else "length only"
    p, ls, lb = p[keep], ls[keep], lb[keep]
    if p.size and (np.any(p < 0) or np.any(p > 1)):
        raise ValueError("preference outside [0, 1]")
    n = int(p.size)
    if n < min_n:
        return LCWinRate(None, n, inputs, reason=f"fewer than {min_n} comparisons with lengths")
    delta = lb - ls
    sd = float(delta.std(ddof=1))
    if sd == 0:
        return LCWinRate(None, n, inputs, reason="no variation in length difference")
    if np.all(p == 0) or np.all(p == 1):
        return LCWinRate(None, n, inputs, reason="every comparison has the same certain outcome: no finite fit")
    cols = [np.tanh(delta / sd)]
    if inputs == "length+difficulty":
        cols.append(d[keep])
    cols.append(np.ones(n))
    w = _fit_soft_logistic(np.column_stack(cols), p)
    if inputs == "length+difficulty":
        lc = float(_logistic(w[1] * d[keep] + w[2]).mean())
        return LCWinRate(lc, n, inputs, float(w[0]), float(w[1]), float(w[2]))
    return LCWinRate(float(_logistic(w[1])), n, inputs, float(w[0]), None, float(w[1]))


# ---------------------------------------------------------------- judge biases


def slot_preference(prefs: Sequence[float], shown_first: Sequence[str]) -> tuple[StatResult, StatResult]:
    """P(the judge prefers the answer in the second slot) and P(it prefers the first), from the shown order.

    For comparison i with p_i = P(B better): q_i = p_i when A was shown first (B in the second slot), 1 - p_i when
    B was shown first. P(second) = mean(q) with ``mean_with_interval``'s standard error and 95 % interval; P(first)
    = 1 - P(second) with the mirrored interval. A judge without position bias, on answers randomly assigned to
    slots, has P(second) = 0.5. Ties count half. Rows without a shown order are left out (n counts the rest).
    """
    q = [p if s == "a" else 1.0 - p for p, s in zip(prefs, shown_first) if s in ("a", "b") and p is not None]
    second = mean_with_interval(q)
    if second.value is None:
        return second, second
    first = StatResult(1 - second.value, second.n, second.reason, se=second.se,
                       low=None if second.high is None else 1 - second.high,
                       high=None if second.low is None else 1 - second.low)
    return second, first


def longer_preference(prefs: Sequence[float], len_a: Sequence[float], len_b: Sequence[float]) -> StatResult:
    """P(the rater prefers the longer answer): mean of p_i when B is longer, 1 - p_i when A is longer.

    Comparisons of equal lengths (or a missing length) are left out (n counts the rest); interval as in
    ``mean_with_interval``. 0.5 means no length preference (on these pairs; length and quality are confounded).
    """
    q = [p if lb > la else 1.0 - p for p, la, lb in zip(prefs, len_a, len_b)
         if p is not None and la is not None and lb is not None and la != lb]
    return mean_with_interval(q)


@dataclass(frozen=True)
class FlipRate:
    """Pairs judged in both orders, and how many changed their verdict when the order was swapped."""

    value: float | None
    flips: int
    pairs: int
    reason: str | None = None

    @property
    def n(self) -> int:
        return self.pairs


def flip_rate(pairs: Sequence[tuple[float, float]]) -> FlipRate:
    """Share of pairs whose verdict flips when the shown order is swapped (FastChat, Zheng et al. 2023).

    ``pairs`` = [(p_order1, p_order2)], both as P(B better) for the same A and B. A pair is consistent when both
    orders give the same label (a, b or tie, ``label_of``); otherwise it is a flip, and FastChat's rule scores the
    pair as a tie. flip_rate = flips / pairs. No pairs -> None ("no pair judged in both orders").
    """
    flips = sum(label_of(x) != label_of(y) for x, y in pairs)
    if not pairs:
        return FlipRate(None, 0, 0, "no pair judged in both orders")
    return FlipRate(flips / len(pairs), flips, len(pairs))
