"""The one result type of evalhouse's statistics."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StatResult:
    """A statistic's value, or None with the reason it is undefined.

    value: the estimate (a coefficient, a rate, a mean, a mean difference); None when undefined.
    n: the units used (pairs, units, raters, tasks or values: each function says which).
    reason: why ``value`` (or the interval) is None; None when everything asked for is defined.
    low, high: the interval's bounds for statistics that report one (bootstrap or normal interval), else None.
    se: the standard error for statistics that report one, else None.
    n_boot_used: for bootstrap statistics whose resamples can be undefined, the resamples that were defined.
    """

    value: float | None
    n: int
    reason: str | None = None
    low: float | None = None
    high: float | None = None
    se: float | None = None
    n_boot_used: int | None = None
