"""The pairwise marts as DataFrames, from ``int_comparisons`` and ``int_suite_systems`` (evalhouse.stats.pairwise does
the statistics). Only usable comparisons (``comparison_problem`` NULL) between two different systems count.

A rater group is all the people of a suite (``people``) or one judge (its ``rater_id``); statistics are per suite
and rater group. Orientation: a comparison (A, B, p = P(B better)) gives system B the value p and system A 1 - p.
"""
from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from evalhouse.stats import agreement, ranking
from evalhouse.stats import pairwise as pw
from evalhouse.stats.result import StatResult

__all__ = ["usable", "win_rates", "ratings", "judge_diagnostics", "variant_base"]

GROUP = ["suite", "rater_group"]


def _none(x):
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else x


def usable(comparisons: pd.DataFrame) -> pd.DataFrame:
    """Comparisons without a problem, between two different systems, preference as float."""
    c = comparisons[comparisons["comparison_problem"].isna() & (comparisons["system_a"] != comparisons["system_b"])]
    c = c.copy()
    c["p"] = c["preference"].astype(float)
    return c


def _baselines(systems: pd.DataFrame) -> dict[str, str]:
    b = systems[systems["is_baseline"].astype(bool)]
    return dict(zip(b["suite"], b["name"]))


def _oriented(c: pd.DataFrame) -> pd.DataFrame:
    """Two rows per comparison: (system, opponent, q = P(system better), lengths, difficulty)."""
    as_b = pd.DataFrame({"suite": c["suite"], "rater_group": c["rater_group"], "item_id": c["item_id"],
                         "system_id": c["system_b"], "opponent_id": c["system_a"], "q": c["p"],
                         "len_system": c["length_b"], "len_opponent": c["length_a"],
                         "difficulty": c["instruction_difficulty"]})
    as_a = pd.DataFrame({"suite": c["suite"], "rater_group": c["rater_group"], "item_id": c["item_id"],
                         "system_id": c["system_a"], "opponent_id": c["system_b"], "q": 1.0 - c["p"],
                         "len_system": c["length_a"], "len_opponent": c["length_b"],
                         "difficulty": c["instruction_difficulty"]})
    return pd.concat([as_b, as_a], ignore_index=True)


def _text_reasons(df: pd.DataFrame) -> pd.DataFrame:
    """Every ``*_reason`` column as text, so the mart types it VARCHAR even when no row has a reason."""
    for c in df.columns:
        if c.endswith("_reason"):
            df[c] = df[c].astype("string")
    return df


WIN_RATE_COLUMNS = [
    "suite", "rater_group", "system_id", "opponent_id", "opponent_is_baseline", "n_comparisons", "n_items", "wins",
    "losses", "draws", "win_rate", "win_rate_se", "win_rate_low", "win_rate_high", "win_rate_reason",
    "discrete_win_rate", "length_controlled_win_rate", "lc_inputs", "lc_coef_length", "lc_coef_difficulty",
    "lc_coef_bias", "length_controlled_win_rate_reason", "avg_length", "opponent_avg_length",
]


def win_rates(comparisons: pd.DataFrame, systems: pd.DataFrame) -> pd.DataFrame:
    """One row per suite x rater group x system x opponent (both directions of every pair that met)."""
    c = usable(comparisons)
    baseline = _baselines(systems)
    rows = []
    for (suite, group, system, opponent), g in _oriented(c).groupby(GROUP + ["system_id", "opponent_id"]):
        wr = pw.win_rate(g["q"].tolist())
        diff = g["difficulty"].astype(float)
        lc = pw.length_controlled_win_rate(g["q"].to_numpy(float), g["len_system"].to_numpy(float),
                                           g["len_opponent"].to_numpy(float),
                                           None if diff.isna().any() else diff.tolist())
        rows.append({
            "suite": suite, "rater_group": group, "system_id": system, "opponent_id": opponent,
            "opponent_is_baseline": baseline.get(suite) == opponent, "n_comparisons": wr.n,
            "n_items": int(g["item_id"].nunique()), "wins": wr.wins, "losses": wr.losses, "draws": wr.draws,
            "win_rate": wr.win_rate, "win_rate_se": wr.standard_error, "win_rate_low": wr.low,
            "win_rate_high": wr.high, "win_rate_reason": wr.reason, "discrete_win_rate": wr.discrete_win_rate,
            "length_controlled_win_rate": lc.value, "lc_inputs": lc.inputs, "lc_coef_length": lc.coef_length,
            "lc_coef_difficulty": lc.coef_difficulty, "lc_coef_bias": lc.coef_bias,
            "length_controlled_win_rate_reason": lc.reason,
            "avg_length": _none(float(g["len_system"].mean())),
            "opponent_avg_length": _none(float(g["len_opponent"].mean())),
        })
    return _text_reasons(pd.DataFrame(rows, columns=WIN_RATE_COLUMNS))


RATING_COLUMNS = [
    "suite", "rater_group", "system_id", "n_comparisons", "n_opponents", "bt_rating", "bt_rating_low",
    "bt_rating_high", "bt_rating_reason", "n_boot_used", "position", "rank_band", "rank_best", "rank_worst",
    "tie_group", "rank_reason",
]


def ratings(comparisons: pd.DataFrame, n_boot: int = 200, seed: int = 0) -> pd.DataFrame:
    """Bradley-Terry rating per suite x rater group x system, with bootstrap interval and rank bands."""
    c = usable(comparisons)
    rows = []
    for (suite, group), g in c.groupby(GROUP):
        fit = pw.bradley_terry_bootstrap(list(zip(g["item_id"], g["system_a"], g["system_b"], g["p"])),
                                         n_boot=n_boot, seed=seed)
        ranked = {r.id: r for r in ranking.rank_bands([(f.system, f.rating, f.low, f.high) for f in fit])}
        o = _oriented(g)
        for f in fit:
            mine = o[o["system_id"] == f.system]
            r = ranked[f.system]
            rows.append({
                "suite": suite, "rater_group": group, "system_id": f.system, "n_comparisons": len(mine),
                "n_opponents": int(mine["opponent_id"].nunique()), "bt_rating": f.rating, "bt_rating_low": f.low,
                "bt_rating_high": f.high, "bt_rating_reason": f.reason, "n_boot_used": f.n_boot_used,
                "position": r.position, "rank_band": r.band, "rank_best": r.rank_best, "rank_worst": r.rank_worst,
                "tie_group": r.tie_group, "rank_reason": r.reason,
            })
    return _text_reasons(pd.DataFrame(rows, columns=RATING_COLUMNS))


DIAGNOSTIC_COLUMNS = ["suite", "rater_group", "diagnostic", "subset", "estimate", "estimate_se", "estimate_low",
                      "estimate_high", "n", "estimate_reason"]

_VARIANT = re.compile(r"^(.*)_(concise|verbose)$")


def variant_base(system: str) -> str:
    """The model a prompt variant belongs to: 'x_concise' and 'x_verbose' -> 'x'; any other name is its own base."""
    m = _VARIANT.match(system)
    return m.group(1) if m else system


def _row(suite, group, diagnostic, subset, result) -> dict:
    if isinstance(result, StatResult):
        return {"suite": suite, "rater_group": group, "diagnostic": diagnostic, "subset": subset,
                "estimate": result.value, "estimate_se": result.se, "estimate_low": result.low,
                "estimate_high": result.high, "n": result.n, "estimate_reason": result.reason}
    return {"suite": suite, "rater_group": group, "diagnostic": diagnostic, "subset": subset,
            "estimate": result.value, "estimate_se": None, "estimate_low": None, "estimate_high": None,
            "n": result.n, "estimate_reason": result.reason}


def _pair_key(c: pd.DataFrame) -> pd.DataFrame:
    """Canonical orientation per pair: X = the smaller response id; px = P(Y better than X)."""
    c = c.copy()
    swap = c["response_id_a"] > c["response_id_b"]
    c["x"] = np.where(swap, c["response_id_b"], c["response_id_a"])
    c["y"] = np.where(swap, c["response_id_a"], c["response_id_b"])
    c["px"] = np.where(swap, 1.0 - c["p"], c["p"])
    c["first"] = np.where(c["shown_first"] == "a", c["response_id_a"],
                          np.where(c["shown_first"] == "b", c["response_id_b"], None))
    return c


def _matched_variants(g: pd.DataFrame, base: str) -> StatResult:
    """P(the longer of two variants of one model gets the better verdict against the same opponent, same item).

    For each item, opponent and two variants of ``base`` (``base``, ``base_concise``, ``base_verbose``) with
    answers of different length: 1 when the longer answer's P(better than the opponent) is higher, 0 when lower,
    0.5 when equal; the mean with ``mean_with_interval``. The model is held fixed, so a value far from 0.5 is the
    judge's taste for length rather than a better model.
    """
    o = _oriented(g)
    o = o[o["system_id"].map(variant_base) == base]
    per = o.groupby(["item_id", "opponent_id", "system_id"], as_index=False).agg(
        q=("q", "mean"), length=("len_system", "first"))
    values = []
    for _, h in per.groupby(["item_id", "opponent_id"]):
        recs = h.to_dict("records")
        for i in range(len(recs)):
            for j in range(i + 1, len(recs)):
                a, b = recs[i], recs[j]
                if pd.isna(a["length"]) or pd.isna(b["length"]) or a["length"] == b["length"]:
                    continue
                longer, shorter = (a, b) if a["length"] > b["length"] else (b, a)
                values.append(1.0 if longer["q"] > shorter["q"] else 0.0 if longer["q"] < shorter["q"] else 0.5)
    return pw.mean_with_interval(values)


def judge_diagnostics(comparisons: pd.DataFrame, systems: pd.DataFrame) -> pd.DataFrame:
    """Position, length, self-preference, flip and agreement diagnostics per suite x rater group (long form)."""
    c = usable(comparisons)
    fam = {(s, n): f for s, n, f in zip(systems["suite"], systems["name"], systems["family"]) if _none(f)}
    rows = []
    for (suite, group), g in c.groupby(GROUP):
        second, first = pw.slot_preference(g["p"].tolist(), g["shown_first"].tolist())
        rows.append(_row(suite, group, "p_prefer_second_slot", "all", second))
        rows.append(_row(suite, group, "p_prefer_first_slot", "all", first))
        rows.append(_row(suite, group, "p_prefer_longer", "all",
                         pw.longer_preference(g["p"].tolist(), g["length_a"].astype(float).tolist(),
                                              g["length_b"].astype(float).tolist())))
        for base in sorted({variant_base(s) for s in pd.concat([g["system_a"], g["system_b"]])
                            if variant_base(s) != s}):
            members = {s for s in pd.concat([g["system_a"], g["system_b"]]) if variant_base(s) == base}
            sub = g[g["system_a"].isin(members | {base}) | g["system_b"].isin(members | {base})]
            res = _matched_variants(sub, base) if len(members | ({base} & set(pd.concat(
                [g["system_a"], g["system_b"]])))) > 1 else StatResult(
                None, 0, "only one variant of this model was compared")
            rows.append(_row(suite, group, "p_prefer_longer_matched_variants", base, res))
        # self-preference: a judge's family against the generators' families
        judge_names = set(g["judge_model"].dropna()) | {group}
        judge_family = next((fam[(suite, n)] for n in sorted(judge_names) if (suite, n) in fam), None)
        if group != "people":
            fa = g["system_a"].map(lambda s, suite=suite: fam.get((suite, s)))
            fb = g["system_b"].map(lambda s, suite=suite: fam.get((suite, s)))
            if judge_family is None:
                res = StatResult(None, 0, "no family declared for this judge in suite.yml")
            else:
                own_a, own_b = fa == judge_family, fb == judge_family
                mask = own_a ^ own_b
                q = np.where(own_b[mask], g["p"][mask], 1.0 - g["p"][mask])
                res = pw.mean_with_interval(q.tolist())
                if res.n == 0:
                    res = StatResult(None, 0, "no comparison of an own-family answer with "
                                     "an answer of another family")
            rows.append(_row(suite, group, "p_prefer_own_family", judge_family or "unknown", res))
        # flips: the same rater group, pair judged with each response shown first
        k = _pair_key(g[g["shown_first"].isin(["a", "b"])])
        pairs = []
        for _, h in k.groupby(["item_id", "x", "y"]):
            by_first = h.groupby("first")["px"].mean()
            if len(by_first) == 2:
                pairs.append((float(by_first.iloc[0]), float(by_first.iloc[1])))
        rows.append(_row(suite, group, "flip_rate", "all", pw.flip_rate(pairs)))
    rows.extend(_agreement_rows(c))
    return _text_reasons(pd.DataFrame(rows, columns=DIAGNOSTIC_COLUMNS))


def _agreement_rows(c: pd.DataFrame) -> list[dict]:
    """Each judge against people on the pairs both judged: Cohen's kappa on labels, Kendall tau-b on P(Y better)."""
    out = []
    k = _pair_key(c)
    for suite, s in k.groupby("suite"):
        people = s[s["rater_group"] == "people"].groupby(["item_id", "x", "y"])["px"].mean()
        for group, g in s[s["rater_group"] != "people"].groupby("rater_group"):
            judge = g.groupby(["item_id", "x", "y"])["px"].mean()
            both = pd.concat([judge.rename("judge"), people.rename("people")], axis=1, join="inner")
            if both.empty:
                reason = "no pair judged by both this judge and people"
                for d in ("kappa_with_people", "tau_b_with_people"):
                    out.append(_row(suite, group, d, "all", StatResult(None, 0, reason)))
                continue
            kappa = agreement.cohen_kappa([pw.label_of(v) for v in both["judge"]],
                                      [pw.label_of(v) for v in both["people"]], labels=["a", "tie", "b"])
            out.append(_row(suite, group, "kappa_with_people", "all", kappa))
            out.append(_row(suite, group, "tau_b_with_people", "all",
                            agreement.kendall_tau_b(both["judge"].tolist(), both["people"].tolist())))
    return out
