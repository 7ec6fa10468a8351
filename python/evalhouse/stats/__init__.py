"""Statistics: agreement and reliability coefficients (``agreement``), bootstrap intervals (``bootstrap``),
the one result type (``result.StatResult``), the reliability marts' tables (``reliability``, ``rater_pairs``), pairwise
comparisons (``pairwise``, ``pairwise_marts``) and rank bands (``ranking``)."""
from __future__ import annotations

import importlib
import threading

__all__ = ["scipy_module"]

_SCIPY_IMPORT = threading.Lock()


def scipy_module(name: str):
    """The scipy module ``name`` (e.g. ``"scipy.stats"``), imported on first use, one thread at a time.

    dbt runs Python models on two threads in one process; two of them importing parts of scipy at once could fail
    with ``KeyError: 'scipy.stats'`` (CPython gives up on one of two imports that wait for each other's module
    locks, and the other finds the half-made module gone). Every scipy import of evalhouse goes through here; an
    import already made costs a dictionary lookup."""
    with _SCIPY_IMPORT:
        return importlib.import_module(name)
