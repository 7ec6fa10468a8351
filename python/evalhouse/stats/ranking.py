"""Leaderboard ranks that respect uncertainty, and the ranking practice's pair count. Pure functions, no I/O.

Rank bands (``rank_bands``)
    A bare 1..N order claims more than a leaderboard with confidence intervals can support. Given each run's
    estimate and its 95% interval [low, high], two runs are *separated* when their intervals do not overlap
    (closed intervals: touching end points overlap). Two outputs are computed:

    * **tie group**: runs whose intervals overlap, directly or through a chain of overlapping runs, form one group
      (the connected components of the interval-overlap graph, which for intervals on a line are the clusters of
      the merged intervals). Groups are numbered best first; every run of a group shares the group's **rank band**
      ``first..last``, the positions its members occupy in the estimate order. A group of one is a plain rank.
    * **rank range** ``rank_best..rank_worst``: rank_best = 1 + number of runs clearly better (their interval lies
      entirely above this run's), rank_worst = N - number of runs clearly worse. This is the "rank = 1 + number of
      models statistically better" convention of public LLM leaderboards (e.g. LMSYS Chatbot Arena), with its
      symmetric upper end.

    Edge cases: a run without an estimate is not ranked (all outputs None, reason "no estimate"); a run with an
    estimate but no interval (either end missing/NaN) gets a position and a reason "no interval" but no tie group
    and no rank range, and other runs' ranges are computed without it (N counts the runs with intervals);
    low > high raises ValueError naming the run. Ties in the estimate are ordered by id so output is deterministic.

Pair agreement (``pair_agreement``)
    Larkfield's ranking practice: the rater puts four replies in order, best first, and "the status line
    counts the pairs that you put in the same order as the rubric". Of the C(n, 2) pairs, those the rubric ties
    (equal totals) have no rubric order and are not counted; each other pair counts when the rater placed the
    higher-scored reply first.
"""
from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True)
class Ranked:
    """One run's place on an uncertainty-aware leaderboard (see the module docstring)."""

    id: Hashable
    estimate: float | None
    low: float | None
    high: float | None
    position: int | None  # 1..N in the estimate order (best first), None without an estimate
    tie_group: int | None  # 1-based, best group first; None without an interval
    band_first: int | None  # the group's rank band first..last (positions)
    band_last: int | None
    rank_best: int | None  # 1 + runs clearly better
    rank_worst: int | None  # N - runs clearly worse
    reason: str | None = None

    @property
    def band(self) -> str | None:
        """The rank band as text: "3" for a group of one, "1-3" for a group spanning positions 1 to 3."""
        if self.band_first is None:
            return None
        return str(self.band_first) if self.band_first == self.band_last else f"{self.band_first}-{self.band_last}"


def _missing(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def rank_bands(runs: Sequence[tuple[Hashable, float | None, float | None, float | None]],
               higher_is_better: bool = True) -> list[Ranked]:
    """Tie groups, rank bands and rank ranges for ``runs`` = [(id, estimate, low, high), ...].

    Returns one ``Ranked`` per input run, best first (runs without an estimate last, in input order).
    """
    sign = 1.0 if higher_is_better else -1.0
    cleaned = []
    for rid, est, lo, hi in runs:
        est = None if _missing(est) else float(est)
        lo = None if _missing(lo) else float(lo)
        hi = None if _missing(hi) else float(hi)
        if lo is not None and hi is not None and lo > hi:
            raise ValueError(f"run {rid!r}: interval low {lo} is above high {hi}")
        cleaned.append((rid, est, lo, hi))
    with_est = sorted((r for r in cleaned if r[1] is not None), key=lambda r: (-sign * r[1], str(r[0])))
    without = [r for r in cleaned if r[1] is None]
    position = {r[0]: i for i, r in enumerate(with_est, start=1)}
    banded = [r for r in with_est if r[2] is not None and r[3] is not None]

    # Tie groups: sort the intervals by their better end and merge overlapping ones (closed intervals).
    group_of: dict = {}
    if banded:
        # "better end" first: for higher-is-better that is the high end, descending.
        order = sorted(banded, key=lambda r: (-sign * (r[3] if sign > 0 else r[2]), str(r[0])))
        groups: list[list] = []
        reach = None  # the worse end of the current merged cluster
        for r in order:
            better_end = r[3] if sign > 0 else r[2]
            worse_end = r[2] if sign > 0 else r[3]
            if reach is not None and sign * better_end >= sign * reach:
                groups[-1].append(r)
                reach = worse_end if sign * worse_end < sign * reach else reach
            else:
                groups.append([r])
                reach = worse_end
        # Number groups best first by their best member's position (the merge order already is best first).
        for g_index, members in enumerate(groups, start=1):
            for r in members:
                group_of[r[0]] = (g_index, members)

    n = len(banded)
    banded_pos = {r[0]: i for i, r in enumerate(banded, start=1)}
    out: list[Ranked] = []
    for rid, est, lo, hi in with_est:
        if rid not in group_of:
            out.append(Ranked(rid, est, lo, hi, position[rid], None, None, None, None, None, "no interval"))
            continue
        g_index, members = group_of[rid]
        # Band: the positions of the group's members among the runs that have intervals (1..n).
        first = min(banded_pos[r[0]] for r in members)
        last = max(banded_pos[r[0]] for r in members)
        if sign > 0:
            better = sum(1 for r in banded if r[2] > hi)
            worse = sum(1 for r in banded if r[3] < lo)
        else:
            better = sum(1 for r in banded if r[3] < lo)
            worse = sum(1 for r in banded if r[2] > hi)
        out.append(Ranked(rid, est, lo, hi, position[rid], g_index, first, last, 1 + better, n - worse))
    for rid, _est, lo, hi in without:
        out.append(Ranked(rid, None, lo, hi, None, None, None, None, None, None, "no estimate"))
    return out


@dataclass(frozen=True)
class PairAgreement:
    """Pairs the rater ordered like the rubric (``same``) out of the pairs the rubric orders (``compared``)."""

    same: int
    compared: int
    rubric_ties: int  # pairs with equal rubric scores: not counted either way

    def status_line(self) -> str:
        ties = f"; {self.rubric_ties} pair(s) the rubric scores equal are not counted" if self.rubric_ties else ""
        return f"{self.same} of {self.compared} pairs in the same order as the rubric{ties}"


def pair_agreement(order: Sequence[Hashable], scores: Mapping[Hashable, float]) -> PairAgreement:
    """Count the pairs of ``order`` (best first) that the rubric ``scores`` (higher = better) order the same way.

    Every id in ``order`` needs a score; ``order`` must not repeat an id (ValueError otherwise). A missing score
    (None/NaN) makes every pair with that id uncountable: it is counted as neither same nor compared.
    """
    if len(set(order)) != len(order):
        raise ValueError(f"the order repeats a reply: {list(order)}")
    unknown = [x for x in order if x not in scores]
    if unknown:
        raise ValueError(f"no rubric score for {unknown}")
    same = compared = ties = 0
    for a, b in combinations(order, 2):  # a is placed before b
        sa, sb = scores[a], scores[b]
        if _missing(sa) or _missing(sb):
            continue
        if sa == sb:
            ties += 1
            continue
        compared += 1
        if sa > sb:
            same += 1
    return PairAgreement(same, compared, ties)
