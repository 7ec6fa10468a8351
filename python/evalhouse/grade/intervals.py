"""GRADE composite leaderboard with uncertainty: a percentile-bootstrap interval of each model's weighted composite
over its tasks, and tie groups / rank bands by the rubric leaderboards' rule (evalhouse.stats.ranking.rank_bands).

Pure functions, no I/O; used by the Python dbt model ``fct_grade__composite_intervals``.

The composite (fct_grade__overall_scores, the grade_level_scores macro) is

    composite = sum_d w_d * mean_t s_{t,d}

over the six dimensions d (project weights w_d, int_grade__project_weights) and the model's tasks t, each dimension's
mean leaving out the tasks where that dimension is NULL. The bootstrap resamples the **tasks** (the items of a GRADE
pack: one task = one question, its score already averaged over the task's runs) with replacement and recomputes the
composite on each resample in the same way, so a task's dimensions stay together. The interval is the
(1 - level)/2 and (1 + level)/2 quantiles of the resampled composites (numpy's linear interpolation): Efron & Tibshirani
1993, ch. 13, as ``evalhouse.stats.bootstrap.bootstrap_mean_ci`` does for rubric leaderboards. When no dimension is NULL
the composite is the mean of the task composites, and the resample composite is the mean of the resampled task
composites.
"""
from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from evalhouse.app.leaderboard import add_rank_bands
from evalhouse.stats.result import StatResult

__all__ = ["DIMENSIONS", "composite_bootstrap_ci", "composite_intervals_table"]

DIMENSIONS = ["grounding_accuracy", "insight_quality", "evidence_linkage", "calibration_limitation_handling",
              "consistency", "structure_usability"]
CI_LEVEL = 0.95
N_BOOT = 2000
CI_METHOD = "percentile bootstrap over tasks"


def _composite(scores: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted sum of the per-dimension means over axis -2 (tasks), NaN left out; NaN when a dimension has no value.

    ``scores``: (..., n_tasks, n_dims); returns shape (...).
    """
    present = ~np.isnan(scores)
    counts = present.sum(axis=-2)
    sums = np.where(present, scores, 0.0).sum(axis=-2)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return means @ weights


def composite_bootstrap_ci(scores: Sequence[Sequence[float | None]], weights: Sequence[float],
                           level: float = CI_LEVEL, n_boot: int = N_BOOT, seed: int = 0) -> StatResult:
    """Composite and percentile-bootstrap interval over tasks for one model.

    ``scores``: one row per task, one column per dimension (in the order of ``weights``), None/NaN = NULL.
    estimate = sum_d w_d * mean of column d over the tasks where it is not NULL (the mart's composite).
    Resampling: ``n_boot`` draws of n task indices with replacement (numpy Generator PCG64 seeded with ``seed``,
    drawn as one (n_boot, n) integer array, so a given seed always gives the same interval).

    Edge cases: no task -> all None, "no tasks"; a dimension NULL on every task -> estimate None, "no <dimension>
    score on any task" naming the column index; one task -> estimate only, "fewer than 2 tasks: no interval"; all
    tasks equal -> the degenerate interval [v, v]; resamples whose composite is undefined are left out of the
    quantiles (n_boot_used < n_boot). level outside (0, 1), n_boot < 1 or a row of the wrong width -> ValueError.
    """
    if not 0 < level < 1:
        raise ValueError(f"level must be in (0, 1), got {level}")
    if n_boot < 1:
        raise ValueError(f"n_boot must be at least 1, got {n_boot}")
    w = np.asarray(weights, dtype=float)
    rows = [list(r) for r in scores]
    for i, r in enumerate(rows):
        if len(r) != len(w):
            raise ValueError(f"task row {i} has {len(r)} dimension scores, expected {len(w)}")
    n = len(rows)
    if n == 0:
        return StatResult(None, 0, "no tasks", n_boot_used=0)
    x = np.array([[np.nan if v is None else float(v) for v in r] for r in rows], dtype=float).reshape(n, len(w))
    empty = [j for j in range(len(w)) if np.isnan(x[:, j]).all()]
    if empty:
        return StatResult(None, n, n_boot_used=0, reason=f"no score on any task for dimension(s) {empty}")
    estimate = float(_composite(x, w))
    if n == 1:
        return StatResult(estimate, 1, "fewer than 2 tasks: no interval", n_boot_used=0)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(n_boot, n))
    boot = _composite(x[idx], w)
    boot = boot[~np.isnan(boot)]
    if boot.size == 0:
        return StatResult(estimate, n, "no resample has every dimension: no interval", n_boot_used=0)
    lo, hi = np.quantile(boot, [(1 - level) / 2, (1 + level) / 2])
    return StatResult(estimate, n, low=float(lo), high=float(hi), n_boot_used=int(boot.size))


def _rank_reason(n_tasks: int, min_tasks: int) -> str:
    """Why a model with a composite is not ranked: too few tasks for a trustworthy interval."""
    n = int(n_tasks)
    return f"{n} {'task' if n == 1 else 'tasks'}, fewer than {int(min_tasks)} (min_tasks_for_interval): not ranked"


def composite_intervals_table(task_scores: pd.DataFrame, weights: dict[str, float], n_boot: int = N_BOOT,
                              seed: int = 0, min_tasks: int = 5, level: float = CI_LEVEL) -> pd.DataFrame:
    """The GRADE overall leaderboard with intervals: one row per run, system_id (fct_grade__composite_intervals).

    ``task_scores``: fct_grade__task_scores rows (system_id and the six DIMENSIONS, one row per pack x task x system_id;
    with pack_id and task_id, the tasks are resampled in that order, so any row order gives the same interval);
    ``weights``: {dimension: project weight}. Every model uses the same seed. Models with fewer than ``min_tasks``
    tasks keep their interval but are flagged (is_below_min_tasks) and not ranked, as rubric leaderboard runs with
    fewer than min_replies_for_interval replies. Tie groups, rank bands and rank ranges come from
    evalhouse.app.leaderboard.add_rank_bands (evalhouse.stats.ranking.rank_bands: closed intervals that overlap,
    directly or through a chain, form one tie group). Sorted best first (composite, then system_id).
    """
    if min_tasks < 2:
        raise ValueError(f"min_tasks must be at least 2, got {min_tasks}")
    missing = [d for d in DIMENSIONS if d not in weights]
    if missing:
        raise ValueError(f"no project weight for {missing}")
    w = [float(weights[d]) for d in DIMENSIONS]
    rows = []
    # The drawn indices refer to the task order: put tasks in a fixed order (pack, task) so the interval does not
    # depend on the order the rows were read in.
    order = [c for c in ("pack_id", "task_id") if c in task_scores]
    if order:
        task_scores = task_scores.sort_values(order, kind="stable")
    for system_id, part in task_scores.groupby("system_id", sort=True):
        values = part[DIMENSIONS].astype(float).to_numpy()
        res = composite_bootstrap_ci(values.tolist(), w, level=level, n_boot=n_boot, seed=seed)
        rows.append({"system_id": system_id, "n_tasks": res.n, "composite": res.value, "composite_ci_low": res.low,
                     "composite_ci_high": res.high, "ci_level": level, "n_boot": n_boot,
                     "n_boot_used": res.n_boot_used, "ci_method": CI_METHOD, "composite_ci_reason": res.reason})
    cols = ["system_id", "n_tasks", "composite", "composite_ci_low", "composite_ci_high", "ci_level", "n_boot",
            "n_boot_used", "ci_method", "composite_ci_reason"]
    out = pd.DataFrame(rows, columns=cols)
    out["min_tasks_for_interval"] = min_tasks
    out["is_below_min_tasks"] = out["n_tasks"] < min_tasks
    out["rankable"] = ~out["is_below_min_tasks"]
    out = add_rank_bands(out, "system_id", "composite", "composite_ci_low", "composite_ci_high",
                         rankable_col="rankable")
    below = out["is_below_min_tasks"] & out["composite"].notna()
    out.loc[below, "rank_reason"] = [_rank_reason(n, min_tasks) for n in out.loc[below, "n_tasks"]]
    out = out.drop(columns=["rankable"])
    out = out.sort_values(["composite", "system_id"], ascending=[False, True], kind="stable", na_position="last")
    for c in ("n_tasks", "n_boot", "n_boot_used", "min_tasks_for_interval"):
        out[c] = out[c].astype("int32")
    for c in ("composite", "composite_ci_low", "composite_ci_high", "ci_level"):
        out[c] = out[c].astype("float64")
    out["tie_group"] = out["tie_group"].astype("Int32")
    for c in ("rank_band", "rank_range", "rank_reason", "composite_ci_reason"):
        out[c] = out[c].astype("string")
    return out.reset_index(drop=True)
