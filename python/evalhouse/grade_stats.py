"""Statistics GRADE needs that stats.py does not hold yet (kept here to stay out of the shared file).

``kendall_tau_b`` is a stand-in: issue 3 adds ``kendall_tau_b`` to ``evalhouse.stats``; once merged, this
function should delegate to it (same definition: scipy.stats.kendalltau(variant="b")).
"""
from __future__ import annotations

import math
from typing import Sequence


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float | None:
    """Kendall tau-b between two paired sequences (ties corrected), via scipy.stats.kendalltau(variant="b").

    tau_b = (n_c - n_d) / sqrt((n_0 - n_1)(n_0 - n_2)), n_0 = n(n-1)/2, n_1 / n_2 = tied pairs in x / y
    (Kendall 1945). Undefined -> None: fewer than 2 pairs, or x or y constant (scipy returns NaN).
    Different lengths raise ValueError.
    """
    if len(x) != len(y):
        raise ValueError(f"x has {len(x)} values and y has {len(y)}; they must be paired")
    if len(x) < 2:
        return None
    from scipy.stats import kendalltau

    res = kendalltau(x, y, variant="b")
    value = float(res.statistic)
    return None if math.isnan(value) else value
