"""GRADE consistency (C4): how stable a model's output is over repeated runs of the same task.

Pure functions (and :func:`consistency_table`, which reads the mart's four inputs from a DuckDB connection). The
reference for the portable SQL model ``fct_grade__consistency`` (DuckDB and Spark):
python/tests/test_grade_consistency_sql.py compares the two on the bundled data and on edge cases.
Spec: GRADE methodology (seed 003), "Consistency": a weighted combination of three sub-metrics in [0, 1]

=====================  ======  ==========================================================================
sub-metric             weight  definition
=====================  ======  ==========================================================================
finding stability      0.50    mean appearance rate of each unique top-3 finding across the runs, findings
                               matched by token-level Jaccard >= 0.50 on casefolded word tokens
ranking stability      0.30    mean over the run pairs (10 pairs for 5 runs) of the normalised Kendall tau-b
                               (tau_b + 1) / 2 between the positions of the top-3 findings the pair shares
metric variance        0.20    mean over numeric ``structured_metrics`` keys of 1 / (1 + CV), CV = population
                               standard deviation (ddof 0) / |mean|
=====================  ======  ==========================================================================

NULL rules (never 0 for "undefined"): each sub-metric returns ``StatResult(None, n, reason)`` when it cannot be
computed (no findings; no run pair sharing two findings; no numeric key in two or more runs; a key whose mean is 0
has no CV and is left out with its reason). The combined score re-weights the defined sub-metrics
(sum w_i s_i / sum w_i over the defined ones) and is NULL only when none is defined; ``weights_used`` records which.
"""
from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from evalhouse.stats.result import StatResult

JACCARD_THRESHOLD = 0.50
TOP_K = 3
SUB_WEIGHTS = {"finding_stability": 0.5, "ranking_stability": 0.3, "metric_variance": 0.2}

# Word tokens: maximal runs of Unicode letters/digits (underscore is not a word character here) after casefold.
_TOKEN = re.compile(r"[^\W_]+")


@dataclass(frozen=True)
class ConsistencyResult:
    finding_stability: StatResult
    ranking_stability: StatResult
    metric_variance: StatResult
    consistency: float | None
    weights_used: str
    reason: str | None = None
    n_runs: int = 0
    details: dict = field(default_factory=dict)


@lru_cache(maxsize=200_000)
def word_tokens(text: str) -> frozenset[str]:
    """The set of casefolded word tokens of ``text`` (str.casefold, then runs of letters/digits)."""
    return frozenset(_TOKEN.findall(text.casefold()))


def token_jaccard(a: str, b: str) -> float | None:
    """Token-level Jaccard |A & B| / |A | B| of the casefolded word-token sets of a and b.

    Both texts without any word token -> None (undefined, 0/0). Example: "Your refund will arrive within
    30 days" vs "The refund arrives within 30 days" -> {refund, within, 30, days} / 9 tokens = 4/9.
    """
    ta, tb = word_tokens(a), word_tokens(b)
    union = len(ta | tb)
    if union == 0:
        return None
    return len(ta & tb) / union


def _matches(a: str, b: str, threshold: float) -> bool:
    if a == b:
        return bool(word_tokens(a)) and threshold <= 1.0
    j = token_jaccard(a, b)
    return j is not None and j >= threshold


def cluster_findings(runs: Sequence[Sequence[str]], top_k: int = TOP_K,
                     threshold: float = JACCARD_THRESHOLD) -> list[list[int]]:
    """Map each run's top-k findings to unique-finding ids.

    Findings are visited run by run, position by position; a finding joins the first unique finding whose
    representative (its first occurrence) has token Jaccard >= threshold with it, else it starts a new one.
    Returns, per run, the list of unique ids of its top-k findings in order (empty strings are skipped).
    """
    reps: list[str] = []
    out: list[list[int]] = []
    for run in runs:
        ids = []
        for text in list(run)[:top_k]:
            if text is None or not str(text).strip():
                continue
            text = str(text)
            for uid, rep in enumerate(reps):
                if _matches(text, rep, threshold):
                    ids.append(uid)
                    break
            else:
                reps.append(text)
                ids.append(len(reps) - 1)
        out.append(ids)
    return out


def finding_stability(runs: Sequence[Sequence[str]], top_k: int = TOP_K,
                      threshold: float = JACCARD_THRESHOLD, clustered: list[list[int]] | None = None) -> StatResult:
    """Mean over unique top-k findings of (runs in which it appears) / (number of runs).

    ``runs`` holds each run's key findings in rank order. No finding in any run -> None.
    Identical runs -> 1.0; k different findings per run, never repeated -> 1 / n_runs.
    """
    if not runs:
        return StatResult(None, 0, "no runs")
    if clustered is None:
        clustered = cluster_findings(runs, top_k, threshold)
    unique = {uid for ids in clustered for uid in ids}
    if not unique:
        return StatResult(None, 0, "no key findings in any run")
    n_runs = len(runs)
    rates = [sum(1 for ids in clustered if uid in ids) / n_runs for uid in sorted(unique)]
    return StatResult(sum(rates) / len(rates), len(rates))


@lru_cache(maxsize=4096)
def _tau_b_cached(x: tuple, y: tuple) -> float | None:
    from evalhouse.stats.agreement import kendall_tau_b

    return kendall_tau_b(x, y).value


def ranking_stability(runs: Sequence[Sequence[str]], top_k: int = TOP_K,
                      threshold: float = JACCARD_THRESHOLD, clustered: list[list[int]] | None = None) -> StatResult:
    """Mean over run pairs of (tau_b + 1) / 2, tau_b = Kendall tau-b of the shared findings' positions.

    For each pair of runs (10 pairs for 5 runs) the unique findings present in both top-k lists are ranked by their
    position in each run; tau-b compares the two rankings. A pair sharing fewer than 2 findings has no tau-b and is
    left out; no pair with a tau-b -> None. Identical runs -> 1.0; reversed order in every pair -> 0.0.
    """
    if len(runs) < 2:
        return StatResult(None, 0, "fewer than 2 runs")
    if clustered is None:
        clustered = cluster_findings(runs, top_k, threshold)
    values = []
    for a, b in combinations(clustered, 2):
        pos_a = {}
        for p, uid in enumerate(a):
            pos_a.setdefault(uid, p)
        pos_b = {}
        for p, uid in enumerate(b):
            pos_b.setdefault(uid, p)
        shared = [uid for uid in pos_a if uid in pos_b]
        if len(shared) < 2:
            continue
        tau = _tau_b_cached(tuple(pos_a[u] for u in shared), tuple(pos_b[u] for u in shared))
        if tau is not None:
            values.append((tau + 1.0) / 2.0)
    if not values:
        return StatResult(None, 0, "no run pair shares 2 or more top-3 findings")
    return StatResult(sum(values) / len(values), len(values))


def coefficient_of_variation(values: Sequence[float]) -> StatResult:
    """CV = population standard deviation (ddof 0) / |mean|.

    Empty -> None; mean 0 -> None ("mean is 0: CV undefined"), e.g. [1, -1] and [0, 0, 0]; never 0, never inf.
    """
    vals = [float(v) for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
    n = len(vals)
    if n == 0:
        return StatResult(None, 0, "no values")
    mean = sum(vals) / n
    if mean == 0:
        return StatResult(None, n, "mean is 0: CV undefined")
    var = sum((v - mean) ** 2 for v in vals) / n
    return StatResult(math.sqrt(var) / abs(mean), n)


def metric_variance(runs_metrics: Sequence[Mapping[str, float | None]], min_runs: int = 2) -> StatResult:
    """Mean over numeric structured_metrics keys of 1 / (1 + CV) across the runs.

    ``runs_metrics``: one mapping key -> number (None / missing = not reported or not numeric) per run. Keys with
    fewer than ``min_runs`` numeric values are left out; keys whose CV is undefined (mean 0) are left out and
    counted in the reason. No usable key -> None.
    """
    values: dict[str, list[float]] = {}
    for metrics in runs_metrics:
        for key, v in (metrics or {}).items():
            if v is None or (isinstance(v, float) and math.isnan(v)):
                continue
            values.setdefault(key, []).append(float(v))
    scores, undefined = [], []
    for key in sorted(values):
        if len(values[key]) < min_runs:
            continue
        cv = coefficient_of_variation(values[key])
        if cv.value is None:
            undefined.append(key)
        else:
            scores.append(1.0 / (1.0 + cv.value))
    if not scores:
        why = "no numeric structured_metrics key in 2 or more runs"
        if undefined:
            why = f"CV undefined (mean 0) for every key: {', '.join(undefined)}"
        return StatResult(None, 0, why)
    reason = f"left out (mean 0, CV undefined): {', '.join(undefined)}" if undefined else None
    return StatResult(sum(scores) / len(scores), len(scores), reason)


def consistency(runs_findings: Sequence[Sequence[str]], runs_metrics: Sequence[Mapping[str, float | None]],
                weights: Mapping[str, float] = SUB_WEIGHTS) -> ConsistencyResult:
    """Combine the three sub-metrics with weights 0.5 / 0.3 / 0.2, re-weighted over the defined ones."""
    clustered = cluster_findings(runs_findings)
    fs = finding_stability(runs_findings, clustered=clustered)
    rs = ranking_stability(runs_findings, clustered=clustered)
    mv = metric_variance(runs_metrics)
    parts = {"finding_stability": fs, "ranking_stability": rs, "metric_variance": mv}
    defined = {k: s.value for k, s in parts.items() if s.value is not None}
    if not defined:
        return ConsistencyResult(fs, rs, mv, None, "", "no sub-metric defined", len(runs_findings))
    total_w = sum(weights[k] for k in defined)
    value = sum(weights[k] * v for k, v in defined.items()) / total_w
    return ConsistencyResult(fs, rs, mv, value, ",".join(defined), None, len(runs_findings))


def metric_variance_by_group(groups: Sequence, keys: Sequence, values: Sequence[float],
                             min_runs: int = 2) -> dict:
    """Vectorised :func:`metric_variance` for many groups at once (same definition and NULL rules).

    ``groups[i]`` (a hashable scalar such as "item<US>model"), ``keys[i]``, ``values[i]``: one numeric metric value of
    one run (NaN / None = not numeric, ignored). Returns {group: StatResult} for every group that appears.
    """
    import numpy as np
    import pandas as pd

    g_codes, g_uniques = pd.factorize(np.asarray(groups, dtype=object) if not isinstance(groups, np.ndarray)
                                      else groups)
    k_codes, k_uniques = pd.factorize(np.asarray(keys, dtype=object) if not isinstance(keys, np.ndarray) else keys)
    v = np.asarray(values, dtype="float64")
    ok = ~np.isnan(v)
    df = pd.DataFrame({"g": g_codes[ok], "k": k_codes[ok], "v": v[ok]})
    grouped = df.groupby(["g", "k"], sort=False)["v"]
    agg = pd.DataFrame({"n": grouped.size(), "mean": grouped.mean(), "sd": grouped.std(ddof=0)}).reset_index()
    agg = agg[agg["n"] >= min_runs]
    zero = agg["mean"].to_numpy() == 0
    usable = agg[~zero].copy()
    usable["score"] = 1.0 / (1.0 + usable["sd"].to_numpy() / np.abs(usable["mean"].to_numpy()))
    per_g = usable.groupby("g", sort=False)["score"].agg(["mean", "size"])
    undefined: dict = {}
    for g, k in zip(agg["g"].to_numpy()[zero], agg["k"].to_numpy()[zero]):
        undefined.setdefault(int(g), []).append(str(k_uniques[k]))
    out: dict = {}
    for g, mean, size in zip(per_g.index.to_numpy(), per_g["mean"].to_numpy(), per_g["size"].to_numpy()):
        und = undefined.get(int(g))
        reason = f"left out (mean 0, CV undefined): {', '.join(sorted(und))}" if und else None
        out[g_uniques[g]] = StatResult(float(mean), int(size), reason)
    for g, und in undefined.items():
        if g_uniques[g] not in out:
            out[g_uniques[g]] = StatResult(None, 0, f"CV undefined (mean 0) for every key: {', '.join(sorted(und))}")
    for g in g_uniques:
        out.setdefault(g, StatResult(None, 0, "no numeric structured_metrics key in 2 or more runs"))
    return out


def consistency_from_parts(runs_findings: Sequence[Sequence[str]], mv: StatResult,
                           weights: Mapping[str, float] = SUB_WEIGHTS) -> ConsistencyResult:
    """:func:`consistency` with the metric-variance sub-metric already computed (e.g. by metric_variance_by_group)."""
    clustered = cluster_findings(runs_findings)
    fs = finding_stability(runs_findings, clustered=clustered)
    rs = ranking_stability(runs_findings, clustered=clustered)
    parts = {"finding_stability": fs, "ranking_stability": rs, "metric_variance": mv}
    defined = {k: s.value for k, s in parts.items() if s.value is not None}
    if not defined:
        return ConsistencyResult(fs, rs, mv, None, "", "no sub-metric defined", len(runs_findings))
    total_w = sum(weights[k] for k in defined)
    value = sum(weights[k] * v for k, v in defined.items()) / total_w
    return ConsistencyResult(fs, rs, mv, value, ",".join(defined), None, len(runs_findings))


def consistency_table(con, schema: str = "main") -> list[dict]:
    """The rows of ``fct_grade__consistency`` computed by this module from the mart's inputs in ``schema`` of a DuckDB
    connection (int_grade__tasks, int_grade__responses, int_grade__response_texts, int_grade__run_metric_values):
    one dict per pack x task x run (system_id) with the mart's columns; ``consistency`` a Decimal rounded half-up to
    12 decimals. The reference the SQL model is tested against (the former Python model's body)."""
    from decimal import ROUND_HALF_UP, Decimal

    no_metric = StatResult(None, 0, "no numeric structured_metrics key in 2 or more runs")
    task_of = {item: (pack, task) for pack, task, item in
               con.execute(f"select pack_id, task_id, item_id from {schema}.int_grade__tasks").fetchall()}
    findings = con.execute(f"""
        select r.item_id, r.system_id, r.repetition, t.text_value
        from {schema}.int_grade__response_texts as t
        inner join {schema}.int_grade__responses as r on r.response_id = t.response_id
        where t.text_kind = 'key_finding' and t.position <= 3
        order by r.item_id, r.system_id, r.repetition, t.position""").fetchall()
    groups = con.execute(f"""
        select item_id, system_id, list(repetition order by repetition) from {schema}.int_grade__responses
        group by item_id, system_id order by item_id, system_id""").fetchall()
    sep = chr(31)  # unit separator: never inside an item id or a run name
    metrics = con.execute(f"""select item_id || chr(31) || system_id, metric_key, metric_value
                              from {schema}.int_grade__run_metric_values""").fetchall()
    mv = metric_variance_by_group([m[0] for m in metrics], [m[1] for m in metrics],
                                  [float("nan") if m[2] is None else m[2] for m in metrics]) if metrics else {}
    by_group: dict = {}
    for item, system, run, text in findings:
        by_group.setdefault((item, system), {}).setdefault(run, []).append(text)
    out = []
    for item, system, runs in groups:
        if item not in task_of:
            continue
        per_run = by_group.get((item, system), {})
        res = consistency_from_parts([per_run.get(r, []) for r in runs], mv.get(item + sep + system, no_metric))
        pack, task = task_of[item]
        out.append({
            "pack_id": pack, "task_id": task, "item_id": item, "system_id": system, "n_repetitions": len(runs),
            "finding_stability": res.finding_stability.value, "n_unique_findings": res.finding_stability.n,
            "finding_stability_reason": res.finding_stability.reason,
            "ranking_stability": res.ranking_stability.value, "n_repetition_pairs_ranked": res.ranking_stability.n,
            "ranking_stability_reason": res.ranking_stability.reason,
            "metric_variance": res.metric_variance.value, "n_metric_keys": res.metric_variance.n,
            "metric_variance_reason": res.metric_variance.reason,
            "consistency": None if res.consistency is None else
            Decimal(res.consistency).quantize(Decimal("1e-12"), rounding=ROUND_HALF_UP),
            "sub_metrics_used": res.weights_used,
            "consistency_reason": res.reason,
        })
    return out
