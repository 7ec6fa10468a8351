"""Paired differences C - D and A - D on the common paired cases of each experiment, with percentile bootstrap
95% intervals (evalhouse.stats.bootstrap.paired_bootstrap_ci; 10,000 resamples, seed 20240930). Metrics per case:
accepted_decision_agreement (1 when the decision is accepted, else 0) and financial_verified_fields (0-6).
Undefined (a group did not run, or fewer than 2 common pairs) -> NULL with the reason. Descriptive only: no
significance test, no ranking of groups."""

CONTRASTS = (("C", "D"), ("A", "D"))
N_RESAMPLES = 10000
SEED = 20240930
CONFIDENCE = 0.95


def model(dbt, session):
    dbt.config(materialized="table")
    import pandas as pd

    from evalhouse.stats.bootstrap import paired_bootstrap_ci

    groups = dbt.ref("fct_decisions__group_comparison").project(
        "experiment_id, group_id, group_arm, group_status").fetchall()
    outcomes = dbt.ref("fct_decisions__card_outcomes").filter("in_common_subset").project(
        "experiment_id, group_arm, case_id, cast(is_accepted as integer), coalesce(fin_verified, 0)").fetchall()
    by_arm: dict[tuple[str, str], dict[str, tuple[int, int]]] = {}
    for exp, arm, case_id, accepted, verified in outcomes:
        by_arm.setdefault((exp, arm), {})[case_id] = (accepted, verified)
    status = {(exp, arm): (gid, st) for exp, gid, arm, st in groups}
    rows = []
    for exp in sorted({g[0] for g in groups}):
        for left, right in CONTRASTS:
            for metric_i, metric in enumerate(("accepted_decision_agreement", "financial_verified_fields")):
                row = {"experiment_id": exp, "contrast": f"{left} - {right}", "metric": metric,
                       "left_group": status.get((exp, left), (None,))[0],
                       "right_group": status.get((exp, right), (None,))[0],
                       "n_resamples": N_RESAMPLES, "seed": SEED, "confidence": CONFIDENCE}
                missing = [arm for arm in (left, right) if (exp, arm) not in status]
                not_run = [arm for arm in (left, right) if status.get((exp, arm), (None, None))[1] == "not_run"]
                if missing or not_run:
                    reason = "; ".join([f"no group {a} in this experiment" for a in missing] +
                                       [f"group {a} did not run" for a in not_run])
                    rows.append({**row, "n_pairs": 0, "mean_difference": None, "ci_low": None, "ci_high": None,
                                 "mean_difference_reason": reason})
                    continue
                la, ra = by_arm.get((exp, left), {}), by_arm.get((exp, right), {})
                common = sorted(set(la) & set(ra))
                res = paired_bootstrap_ci([la[c][metric_i] for c in common], [ra[c][metric_i] for c in common],
                                          N_RESAMPLES, SEED, CONFIDENCE)
                rows.append({**row, "n_pairs": res.n, "mean_difference": res.value, "ci_low": res.low,
                             "ci_high": res.high, "mean_difference_reason": res.reason})
    columns = ["experiment_id", "contrast", "metric", "left_group", "right_group", "n_pairs", "mean_difference",
               "ci_low", "ci_high", "confidence", "n_resamples", "seed", "mean_difference_reason"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.astype({"experiment_id": "string", "contrast": "string", "metric": "string",
                         "left_group": "string", "right_group": "string", "mean_difference_reason": "string",
                         "n_pairs": "int64", "n_resamples": "int64", "seed": "int64",
                         "mean_difference": "Float64", "ci_low": "Float64", "ci_high": "Float64",
                         "confidence": "Float64"})
