"""Two-reader agreement tables (used by the dbt Python model int_rater_pair_kappa)."""
from __future__ import annotations

import pandas as pd

from evalhouse.stats.agreement import cohen_kappa

KEYS = ["suite", "rubric_id", "rubric_version", "rater_a", "rater_b", "measure"]
KAPPA_COLUMNS = KEYS + ["n_pairs", "cohen_kappa", "kappa_linear", "kappa_quadratic", "kappa_reason"]


def pair_kappas(pairs: pd.DataFrame, criteria: pd.DataFrame) -> pd.DataFrame:
    """Cohen's kappa (unweighted, linear, quadratic) per rater pair x measure.

    ``pairs``: rows of int_rater_pair_scores (KEYS + value_a, value_b as text). ``criteria``: int_rubric_criteria
    (rubric_id, rubric_version, criterion, min_score, max_score) -- the label scale of a criterion is every integer
    level from min_score to max_score, from the rubric, not from what was observed. The 'ready' measure uses the
    labels [false, true] and has no weighted kappa; 'all_criteria' has no kappa (see exact agreement). Every
    NULL kappa carries kappa_reason.
    """
    scales = {
        (r.rubric_id, int(r.rubric_version), r.criterion): list(range(int(r.min_score), int(r.max_score) + 1))
        for r in criteria.itertuples(index=False)
    }
    rows = []
    for key, group in pairs.groupby(KEYS, sort=True, dropna=False):
        suite, rubric_id, version, _, _, measure = key
        n = len(group)
        unweighted = linear = quadratic = None
        reasons: list[str] = []
        if measure == "all_criteria":
            reasons.append("kappa is not defined for the combined measure; use exact agreement")
        elif measure == "ready":
            res = cohen_kappa(list(group["value_a"]), list(group["value_b"]), ["false", "true"])
            unweighted = res.value
            if res.reason:
                reasons.append(res.reason)
            reasons.append("weighted kappa does not apply to a binary decision")
        else:
            labels = scales.get((rubric_id, int(version), measure))
            a = [int(v) for v in group["value_a"]]
            b = [int(v) for v in group["value_b"]]
            results = [cohen_kappa(a, b, labels, w) for w in (None, "linear", "quadratic")]
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
