"""Two-reader agreement tables (used by the dbt Python model int_rater_pair_kappa)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from evalhouse.stats.agreement import cohen_kappa_table

__all__ = ["KEYS", "KAPPA_COLUMNS", "pair_kappas"]

KEYS = ["suite", "rubric_id", "rubric_version", "rater_a", "rater_b", "measure"]
KAPPA_COLUMNS = KEYS + ["n_pairs", "cohen_kappa", "kappa_linear", "kappa_quadratic", "kappa_reason"]


def pair_kappas(counts: pd.DataFrame, criteria: pd.DataFrame) -> pd.DataFrame:
    """Cohen's kappa (unweighted, linear, quadratic) per rater pair x measure, from contingency counts.

    ``counts``: KEYS + value_a, value_b (the two raters' values as text, as in int_rater_pair_scores) + n_units,
    the number of shared replies with that pair of values (one row per observed cell; the warehouse aggregates
    int_rater_pair_scores in SQL, so millions of rated replies arrive as a few cells per pair). ``criteria``:
    int_rubric_criteria (rubric_id, rubric_version, criterion, min_score, max_score) -- the label scale of a
    criterion is every integer level from min_score to max_score, from the rubric, not from what was observed.
    The 'ready' measure uses the labels [false, true] and has no weighted kappa; 'all_criteria' has no kappa (see
    exact agreement). Every NULL kappa carries kappa_reason. A value outside the scale raises ValueError.
    """
    scales = {
        (r.rubric_id, int(r.rubric_version), r.criterion): [str(v) for v in range(int(r.min_score),
                                                                               int(r.max_score) + 1)]
        for r in criteria.itertuples(index=False)
    }
    rows = []
    # the groups of counts.groupby(KEYS, sort=True, dropna=False), walked as numpy slices (a sub-frame per pair
    # cost ~1.5 ms, most of this model's time)
    grouped = counts.groupby(KEYS, sort=True, dropna=False)
    group_keys = list(grouped.size().index)
    order = np.argsort(grouped.ngroup().to_numpy(), kind="stable")
    bounds = np.concatenate([[0], np.cumsum(grouped.size().to_numpy())])
    value_a = counts["value_a"].to_numpy(dtype=object)[order]
    value_b = counts["value_b"].to_numpy(dtype=object)[order]
    n_units = counts["n_units"].to_numpy()[order]
    for g, key in enumerate(group_keys):
        cells = slice(bounds[g], bounds[g + 1])
        suite, rubric_id, version, _, _, measure = key
        n = int(n_units[cells].sum())
        unweighted = linear = quadratic = None
        reasons: list[str] = []
        if measure == "all_criteria":
            reasons.append("kappa is not defined for the combined measure; use exact agreement")
        else:
            labels = ["false", "true"] if measure == "ready" else scales.get((rubric_id, int(version), measure))
            table = _table_of(value_a[cells], value_b[cells], n_units[cells], labels)
            if measure == "ready":
                res = cohen_kappa_table(table)
                unweighted = res.value
                if res.reason:
                    reasons.append(res.reason)
                reasons.append("weighted kappa does not apply to a binary decision")
            else:
                results = [cohen_kappa_table(table, w) for w in (None, "linear", "quadratic")]
                unweighted, linear, quadratic = (r.value for r in results)
                reasons.extend(sorted({r.reason for r in results if r.reason}))
        rows.append((*key, n, unweighted, linear, quadratic, "; ".join(reasons) or None))
    out = pd.DataFrame(rows, columns=KAPPA_COLUMNS)
    return out.astype(
        {
            "suite": "string", "rubric_id": "string", "rubric_version": "int32", "rater_a": "string",
            "rater_b": "string", "measure": "string", "n_pairs": "int32", "cohen_kappa": "Float64",
            "kappa_linear": "Float64", "kappa_quadratic": "Float64", "kappa_reason": "string",
        }
    )


def _table_of(value_a, value_b, n_units, labels: list[str] | None) -> np.ndarray:
    """k x k counts of one pair x measure in scale order, from its cells (value_a, value_b as text, n_units);
    ValueError naming the values not on the scale."""
    labels = labels or []
    index = {label: i for i, label in enumerate(labels)}
    unknown = sorted({v for v in (*value_a, *value_b) if v not in index})
    if unknown:
        raise ValueError(f"labels {unknown} are not on the scale {labels}")
    table = np.zeros((len(labels), len(labels)))
    for a, b, n in zip(value_a, value_b, n_units):
        table[index[a], index[b]] += n
    return table
