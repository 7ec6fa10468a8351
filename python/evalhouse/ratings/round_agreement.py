"""Agreement of a rating round's readers: per measure across all readers, and per pair of readers.

Input (``readings``, the dbt model fct_round_readings): one row per round x measure x reply x reader, columns
``READING_COLUMNS``; ``value`` is text (a criterion's whole level, or 'true' / 'false' for the decision measure
``ready``). The labels are the measure's full scale -- a criterion: every level from ``scale_min`` to ``scale_max``
(the rubric's); ready (scale_min NULL): false, true -- so a statistic means the same whatever levels were used.
The statistics are evalhouse.stats's:

- ``round_agreement``: per round x measure, exact agreement (share of replies with two or more readings where every
  reader gave the same value) and Krippendorff's alpha (nominal and ordinal) over all readers, missing readers
  allowed (a reply read once is not pairable; Krippendorff 2011);
- ``round_pair_agreement``: per round x measure x pair of readers (rater_a < rater_b), on the replies both read only:
  exact agreement and Cohen's kappa (unweighted, linear, quadratic; Cohen 1960, 1968); weighted kappa does not apply
  to ready.

Undefined values are NULL with a ``*_reason``.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from evalhouse.stats.agreement import cohen_kappa, exact_agreement, krippendorff_alpha

__all__ = ["READING_COLUMNS", "ROUND_AGREEMENT_COLUMNS", "PAIR_AGREEMENT_COLUMNS", "round_agreement",
           "round_pair_agreement"]

READING_COLUMNS = ["round_id", "measure", "measure_order", "response_id", "rater_id", "value", "scale_min",
                   "scale_max"]
ROUND_AGREEMENT_COLUMNS = [
    "round_id", "measure", "measure_order", "n_replies_read", "n_replies_pairable", "n_readers", "n_readings",
    "exact_agreement", "exact_agreement_reason", "alpha_nominal", "alpha_nominal_reason", "alpha_ordinal",
    "alpha_ordinal_reason",
]
PAIR_AGREEMENT_COLUMNS = [
    "round_id", "measure", "measure_order", "rater_a", "rater_b", "n_shared", "n_agree", "exact_agreement",
    "cohen_kappa", "kappa_linear", "kappa_quadratic", "kappa_reason",
]


def _labels(g: pd.DataFrame) -> list:
    """The measure's ordered labels: a criterion's levels scale_min..scale_max, or ['false', 'true'] for ready."""
    lo, hi = g["scale_min"].iloc[0], g["scale_max"].iloc[0]
    if pd.isna(lo) or pd.isna(hi):
        return ["false", "true"]
    return list(range(int(lo), int(hi) + 1))


def _typed(values, labels: list) -> list:
    return [int(v) if isinstance(labels[0], int) else str(v) for v in values]


def round_agreement(readings: pd.DataFrame) -> pd.DataFrame:
    """One row per round x measure (``ROUND_AGREEMENT_COLUMNS``).

    exact_agreement = (replies whose readings are all equal) / (replies with >= 2 readings); NULL with
    "no reply has two readers yet" when none. alpha_nominal / alpha_ordinal: stats.krippendorff_alpha on the replies
    x readers matrix (missing cells NaN) with the measure's scale as labels."""
    rows = []
    for (round_id, measure), g in readings.groupby(["round_id", "measure"], sort=True):
        labels = _labels(g)
        g = g.assign(v=_typed(g["value"], labels))
        per_reply = g.groupby("response_id")["v"].agg(list)
        pairable = per_reply[per_reply.map(len) >= 2]
        if len(pairable):
            agree = float(np.mean([len(set(vs)) == 1 for vs in pairable]))
            agree_reason = None
        else:
            agree, agree_reason = None, "no reply has two readers yet"
        index = {label: i for i, label in enumerate(labels)}
        matrix = g.pivot(index="response_id", columns="rater_id", values="v").map(
            lambda x, index=index: np.nan if pd.isna(x) else index[x]).astype(float)
        positions = list(range(len(labels)))
        nominal = krippendorff_alpha(matrix.to_numpy(), "nominal", positions)
        ordinal = krippendorff_alpha(matrix.to_numpy(), "ordinal", positions)
        rows.append((round_id, measure, int(g["measure_order"].iloc[0]), int(per_reply.size), int(len(pairable)),
                     int(g["rater_id"].nunique()), int(len(g)), agree, agree_reason, nominal.value, nominal.reason,
                     ordinal.value, ordinal.reason))
    out = pd.DataFrame(rows, columns=ROUND_AGREEMENT_COLUMNS)
    return out.astype({"round_id": "string", "measure": "string", "measure_order": "int32",
                       "n_replies_read": "int32", "n_replies_pairable": "int32", "n_readers": "int32",
                       "n_readings": "int32", "exact_agreement": "Float64", "exact_agreement_reason": "string",
                       "alpha_nominal": "Float64", "alpha_nominal_reason": "string", "alpha_ordinal": "Float64",
                       "alpha_ordinal_reason": "string"})


def round_pair_agreement(readings: pd.DataFrame) -> pd.DataFrame:
    """One row per round x measure x reader pair who share at least one reply (``PAIR_AGREEMENT_COLUMNS``).

    Only the replies both readers read are used (n_shared). Kappas are over the measure's full scale; for ready
    (text labels) the weighted kappas are NULL ("weighted kappa does not apply to a binary decision")."""
    rows = []
    for (round_id, measure), g in readings.groupby(["round_id", "measure"], sort=True):
        labels = _labels(g)
        by_rater = {r: dict(zip(x["response_id"], _typed(x["value"], labels)))
                    for r, x in g.groupby("rater_id", sort=True)}
        for a, b in itertools.combinations(sorted(by_rater), 2):
            shared = sorted(set(by_rater[a]) & set(by_rater[b]))
            if not shared:
                continue
            va = [by_rater[a][u] for u in shared]
            vb = [by_rater[b][u] for u in shared]
            agree = exact_agreement(va, vb)
            reasons = []
            kappas = []
            for w in (None, "linear", "quadratic"):
                if w and not isinstance(labels[0], int):
                    kappas.append(None)
                    continue
                k = cohen_kappa(va, vb, labels, w)
                kappas.append(k.value)
                if k.reason:
                    reasons.append(k.reason)
            if not isinstance(labels[0], int):
                reasons.append("weighted kappa does not apply to a binary decision")
            rows.append((round_id, measure, int(g["measure_order"].iloc[0]), a, b, len(shared),
                         int(sum(x == y for x, y in zip(va, vb))), agree.value, *kappas,
                         "; ".join(dict.fromkeys(reasons)) or None))
    out = pd.DataFrame(rows, columns=PAIR_AGREEMENT_COLUMNS)
    return out.astype({"round_id": "string", "measure": "string", "measure_order": "int32", "rater_a": "string",
                       "rater_b": "string", "n_shared": "int32", "n_agree": "int32", "exact_agreement": "Float64",
                       "cohen_kappa": "Float64", "kappa_linear": "Float64", "kappa_quadratic": "Float64",
                       "kappa_reason": "string"})
