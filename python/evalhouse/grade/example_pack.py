"""Deterministic generator of the GRADE example pack ``edu_example`` (SYNTHETIC data, seed 42).

A small education-analytics fixture (a tutoring programme over one quarter, Sep-Nov 2024): CSV data, a
``ground_truth.json`` computed from the generated data, ten tasks over the five GRADE tracks, and example responses
of three synthetic "models" of varied quality (5 runs each) with judge ratings. Nothing here is real: schools,
tutors, students, studies and model outputs are invented. The pack follows ``data/grade/PACK_FORMAT.md``.

    python -m evalhouse.grade.example_pack data/grade/packs/edu_example

Same seed -> byte-identical files (``random.Random(42)``, sorted keys, fixed float formatting, ``\\n`` line ends).
"""
from __future__ import annotations

import csv
import io
import json
import random
import statistics
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

PACK_ID = "edu_example"
SEED = 42
MONTHS = ["2024-09", "2024-10", "2024-11"]
MODELS = ["synthetic-strong", "synthetic-mixed", "synthetic-weak"]
RUNS = 5
JUDGE_MODEL = "synthetic-judge-1"
JUDGE_PROMPT = "grade-judge-v1"
DIMENSIONS = ["grounding_accuracy", "insight_quality", "evidence_linkage", "calibration_limitation_handling",
              "consistency", "structure_usability"]
TRACK_WEIGHTS = {  # per-task rubric weights by track (methodology: "typical dimension weights")
    1: ["0.45", "0.15", "0.15", "0.10", "0.10", "0.05"],
    2: ["0.35", "0.20", "0.15", "0.15", "0.10", "0.05"],
    3: ["0.35", "0.20", "0.20", "0.10", "0.10", "0.05"],
    4: ["0.30", "0.15", "0.15", "0.25", "0.10", "0.05"],
    5: ["0.30", "0.25", "0.15", "0.15", "0.10", "0.05"],
}
SCHOOLS = [("S-01", "Große Allee Grundschule", 8), ("S-02", "Riverside Elementary", 6),
           ("S-03", "Hillcrest Middle", 6), ("S-04", "Oakwood Academy", 4)]  # id, name, groups
STUDIES = [  # id, design, grade band, effect size d, n students, aligned standard
    ("ST-0042", "randomised controlled trial", "grades 3-5", "0.31", 1180, "ACC-7A"),
    ("ST-0107", "quasi-experimental", "grades 4-6", "0.22", 640, "ACC-7"),
    ("ST-0219", "randomised controlled trial", "grades 6-8", "0.18", 2210, "ACC-9B"),
]


def q2(x: Decimal | float | int, places: str = "0.01") -> Decimal:
    return Decimal(str(x)).quantize(Decimal(places), rounding=ROUND_HALF_UP)


# ---------------------------------------------------------------------------------------------------------------
# data


def generate_data(rng: random.Random) -> dict[str, list[dict]]:
    schools, tutors, groups, sessions, students = [], [], [], [], []
    tutor_no, group_no, session_no, student_no = 0, 0, 0, 0
    for school_id, name, n_groups in SCHOOLS:
        schools.append({"school_id": school_id, "school_name": name})
        for _ in range(n_groups // 2):
            tutor_no += 1
            tutor_id = f"T-{tutor_no:03d}"
            tutors.append({"tutor_id": tutor_id, "school_id": school_id})
            for _g in range(2):
                group_no += 1
                group_id = f"G-{group_no:02d}"
                groups.append({"group_id": group_id, "tutor_id": tutor_id, "school_id": school_id})
    cancel_base = {"2024-09": 0.05, "2024-10": 0.13, "2024-11": 0.06}
    for g in groups:
        extra = 0.12 if g["tutor_id"] == "T-007" else 0.0
        no_show = 0.12 if g["tutor_id"] == "T-004" else 0.04
        for month in MONTHS:
            for _s in range(8):
                session_no += 1
                r = rng.random()
                if r < cancel_base[month] + extra:
                    status, minutes = "cancelled", 0
                elif r < cancel_base[month] + extra + no_show:
                    status, minutes = "no_show", 0
                else:
                    status, minutes = "completed", 30 + 5 * int(rng.random() * 7)
                sessions.append({"session_id": f"SE-{session_no:05d}", "month": month, "group_id": g["group_id"],
                                 "tutor_id": g["tutor_id"], "school_id": g["school_id"], "status": status,
                                 "minutes": minutes})
    completed_by_group = {}
    for s in sessions:
        if s["status"] == "completed":
            completed_by_group[s["group_id"]] = completed_by_group.get(s["group_id"], 0) + 1
    for g in groups:
        n_students = 6 + int(rng.random() * 4)
        for _k in range(n_students):
            student_no += 1
            r = rng.random()
            if g["school_id"] == "S-04":
                subgroup = "iep" if r < 0.12 else ("ell" if r < 0.40 else "general")
            else:
                subgroup = "iep" if r < 0.15 else ("ell" if r < 0.45 else "general")
            pre = 40 + int(rng.random() * 30)
            attended = max(0, completed_by_group.get(g["group_id"], 0) - int(rng.random() * 4))
            gain = round(attended * 0.35 + (rng.random() - 0.5) * 8 - (1.5 if subgroup == "ell" else 0.0))
            students.append({"student_id": f"ST{student_no:04d}", "group_id": g["group_id"],
                             "school_id": g["school_id"], "subgroup": subgroup, "sessions_attended": attended,
                             "pre_score": pre, "post_score": pre + gain})
    studies = [{"study_id": s[0], "design": s[1], "grade_band": s[2], "effect_size_d": s[3], "n_students": s[4],
                "aligned_standard": s[5]} for s in STUDIES]
    return {"schools": schools, "tutors": tutors, "groups": groups, "sessions": sessions, "students": students,
            "studies": studies}


def compute_ground_truth(data: dict[str, list[dict]]) -> dict[str, str]:
    """Every gold value, computed from the generated rows (exact Decimal arithmetic, half-up rounding)."""
    sessions, students = data["sessions"], data["students"]

    def rate(rows, status):
        n = len(rows)
        return q2(Decimal(sum(1 for r in rows if r["status"] == status) * 100) / Decimal(n)) if n else None

    by_month = {m: [s for s in sessions if s["month"] == m] for m in MONTHS}
    gt: dict[str, str] = {}
    oct_rows = by_month["2024-10"]
    gt["oct_sessions_scheduled"] = str(len(oct_rows))
    gt["oct_cancel_rate_pct"] = str(rate(oct_rows, "cancelled"))
    gt["sep_cancel_rate_pct"] = str(rate(by_month["2024-09"], "cancelled"))
    gt["nov_cancel_rate_pct"] = str(rate(by_month["2024-11"], "cancelled"))
    sep_c = sum(1 for s in by_month["2024-09"] if s["status"] == "cancelled") / len(by_month["2024-09"])
    oct_c = sum(1 for s in oct_rows if s["status"] == "cancelled") / len(oct_rows)
    gt["oct_to_sep_cancel_ratio"] = str(q2(Decimal(oct_c) / Decimal(sep_c), "0.1"))
    per_school = {}
    for s in sessions:
        per_school[s["school_id"]] = per_school.get(s["school_id"], 0) + 1
    top_school = max(sorted(per_school), key=lambda k: per_school[k])
    gt["top_school_name"] = dict((s[0], s[1]) for s in SCHOOLS)[top_school]
    gt["top_school_sessions"] = str(per_school[top_school])
    tutors = sorted({s["tutor_id"] for s in sessions})
    t_cancel = {t: rate([s for s in sessions if s["tutor_id"] == t], "cancelled") for t in tutors}
    top_t = max(tutors, key=lambda t: (t_cancel[t], t))
    gt["top_cancel_tutor_id"] = top_t
    gt["top_cancel_tutor_rate_pct"] = str(t_cancel[top_t])
    gt["sessions_completed_total"] = str(sum(1 for s in sessions if s["status"] == "completed"))
    t_complete = {t: rate([s for s in sessions if s["tutor_id"] == t], "completed") for t in tutors}
    low_t = min(tutors, key=lambda t: (t_complete[t], t))
    gt["lowest_completion_tutor_id"] = low_t
    gt["lowest_completion_rate_pct"] = str(t_complete[low_t])
    groups = sorted({s["group_id"] for s in sessions})
    g_noshow = {g: sum(1 for s in sessions if s["group_id"] == g and s["status"] == "no_show") for g in groups}
    top_g = max(groups, key=lambda g: (g_noshow[g], g))
    gt["most_no_show_group_id"] = top_g
    gt["most_no_show_group_count"] = str(g_noshow[top_g])
    schools = [s[0] for s in SCHOOLS]
    s_oct = {sc: rate([s for s in oct_rows if s["school_id"] == sc], "cancelled") for sc in schools}
    top_s = max(schools, key=lambda sc: (s_oct[sc], sc))
    gt["top_oct_cancel_school_id"] = top_s
    gt["top_oct_cancel_school_rate_pct"] = str(s_oct[top_s])
    gains = [st["post_score"] - st["pre_score"] for st in students]
    gt["mean_gain_points"] = str(q2(Decimal(sum(gains)) / Decimal(len(gains))))
    r = statistics.correlation([float(st["sessions_attended"]) for st in students], [float(g) for g in gains])
    gt["attendance_gain_correlation"] = str(q2(r, "0.001"))

    def mean_gain(rows):
        return q2(Decimal(sum(x["post_score"] - x["pre_score"] for x in rows)) / Decimal(len(rows)))

    ell = [st for st in students if st["subgroup"] == "ell"]
    gen = [st for st in students if st["subgroup"] == "general"]
    gt["ell_mean_gain_points"] = str(mean_gain(ell))
    gt["general_mean_gain_points"] = str(mean_gain(gen))
    gt["ell_general_gap_points"] = str(mean_gain(gen) - mean_gain(ell))
    cells = {}
    for st in students:
        cells.setdefault((st["school_id"], st["subgroup"]), []).append(st)
    suppressed = sorted(f"{sc} {sg}" for (sc, sg), rows in cells.items() if len(rows) < 10)
    gt["suppressed_cells"] = "; ".join(suppressed)
    gt["suppressed_cell_count"] = str(len(suppressed))
    pre_sd = statistics.pstdev([float(st["pre_score"]) for st in students])
    gt["program_effect_d"] = str(q2(float(sum(gains)) / len(gains) / pre_sd))
    ds = [Decimal(s[3]) for s in STUDIES]
    gt["mean_published_d"] = str(q2(sum(ds) / Decimal(len(ds))))
    top_study = max(STUDIES, key=lambda s: Decimal(s[3]))
    gt["largest_effect_study_id"] = top_study[0]
    gt["largest_effect_study_standard"] = top_study[5]
    gt["rct_count"] = str(sum(1 for s in STUDIES if s[1].startswith("randomised")))
    gt["pooled_study_n"] = str(sum(s[4] for s in STUDIES))
    return gt


# ---------------------------------------------------------------------------------------------------------------
# tasks and gold


def build_tasks(gt: dict[str, str]) -> dict[str, list[dict]]:
    """Tasks, weights, gold facts / insights, required limitations and forbidden claims."""
    tasks = _tasks()
    return {"tasks": tasks, "task_weights": _task_weights(tasks), "gold_facts": _gold_facts(gt),
            "gold_insights": _gold_insights(gt), "required_limitations": _required_limitations(),
            "forbidden_claims": _forbidden_claims()}


def _tasks() -> list[dict]:
    def task(tid, track, title, prompt):
        return {"pack_id": PACK_ID, "task_id": tid, "track": track, "title": title, "prompt": prompt}

    return [
        task("t1_october_volume", 1, "October session volume",
          "From sessions.csv: how many sessions were scheduled in October 2024, what share was cancelled, and "
          "which school ran the most sessions over the quarter?"),
        task("t1_tutor_cancellations", 1, "Tutor cancellations",
          "Which tutor had the highest cancellation rate over the quarter, and how many sessions were completed?"),
        task("t2_cancellation_trend", 2, "Cancellation trend Sep-Nov",
          "Describe the monthly cancellation trend and the most notable anomaly."),
        task("t2_attendance_and_gains", 2, "Attendance and score gains",
          "Describe how sessions attended relate to score gains (students.csv)."),
        task("t3_tutor_coaching", 3, "Coaching priorities",
          "Which tutors and groups should the programme coach first to improve attendance? Cite evidence."),
        task("t3_school_scheduling", 3, "Scheduling support",
          "Which school should receive scheduling support after October? Cite evidence."),
        task("t4_subgroup_gains", 4, "Subgroup gains",
          "Compare mean score gains of English learners (ell) and general-education students; respect the n<10 "
          "reporting threshold."),
        task("t4_suppressed_cells", 4, "Small-cell reporting",
          "Which school x subgroup cells fall below the n<10 reporting threshold?"),
        task("t5_published_effects", 5, "Programme vs published effects",
          "Compare the programme's effect size with the published studies in studies.csv."),
        task("t5_evidence_strength", 5, "Strength of the evidence",
          "Summarise the strength of the published evidence and the standard of the study with the largest effect."),
    ]


def _task_weights(tasks: list[dict]) -> list[dict]:
    return [{"pack_id": PACK_ID, "task_id": t["task_id"], "dimension": dim, "weight": w}
            for t in tasks for dim, w in zip(DIMENSIONS, TRACK_WEIGHTS[t["track"]], strict=True)]


def _gold_facts(gt: dict[str, str]) -> list[dict]:
    def fact(tid, key, kind, unit="", atol="", rtol="", desc=""):
        return {"pack_id": PACK_ID, "task_id": tid, "fact_id": key, "fact_kind": kind, "gold_value": gt[key],
                "unit": unit, "abs_tol": atol, "rel_tol": rtol, "ground_truth_key": key, "description": desc}

    return [
        fact("t1_october_volume", "oct_sessions_scheduled", "numeric", "sessions", desc="sessions scheduled in Oct"),
        fact("t1_october_volume", "oct_cancel_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t1_october_volume", "top_school_name", "string", desc="school with most sessions (name)"),
        fact("t1_tutor_cancellations", "top_cancel_tutor_id", "string"),
        fact("t1_tutor_cancellations", "top_cancel_tutor_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t1_tutor_cancellations", "sessions_completed_total", "numeric", "sessions"),
        fact("t2_cancellation_trend", "sep_cancel_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t2_cancellation_trend", "oct_cancel_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t2_cancellation_trend", "nov_cancel_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t2_cancellation_trend", "oct_to_sep_cancel_ratio", "numeric", "ratio", rtol="0.05"),
        fact("t2_attendance_and_gains", "attendance_gain_correlation", "numeric", "r", atol="0.01"),
        fact("t2_attendance_and_gains", "mean_gain_points", "numeric", "points", rtol="0.02"),
        fact("t3_tutor_coaching", "lowest_completion_tutor_id", "string"),
        fact("t3_tutor_coaching", "lowest_completion_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t3_tutor_coaching", "most_no_show_group_id", "string"),
        fact("t3_school_scheduling", "top_oct_cancel_school_id", "string"),
        fact("t3_school_scheduling", "top_oct_cancel_school_rate_pct", "numeric", "percent", atol="0.05"),
        fact("t4_subgroup_gains", "ell_mean_gain_points", "numeric", "points", atol="0.05"),
        fact("t4_subgroup_gains", "general_mean_gain_points", "numeric", "points", atol="0.05"),
        fact("t4_subgroup_gains", "ell_general_gap_points", "numeric", "points", atol="0.05"),
        fact("t4_suppressed_cells", "suppressed_cells", "string", desc="'; '-joined school subgroup cells, sorted"),
        fact("t4_suppressed_cells", "suppressed_cell_count", "numeric", "cells"),
        fact("t5_published_effects", "program_effect_d", "numeric", "d", atol="0.01"),
        fact("t5_published_effects", "mean_published_d", "numeric", "d", atol="0.01"),
        fact("t5_published_effects", "largest_effect_study_id", "string"),
        fact("t5_evidence_strength", "rct_count", "numeric", "studies"),
        fact("t5_evidence_strength", "pooled_study_n", "numeric", "students"),
        fact("t5_evidence_strength", "largest_effect_study_standard", "string"),
    ]


def _gold_insights(gt: dict[str, str]) -> list[dict]:
    def insight(tid, iid, text, terms, unc="false"):
        return {"pack_id": PACK_ID, "task_id": tid, "insight_id": iid, "insight_text": text, "match_terms": terms,
                "about_uncertainty": unc}

    return [
        insight("t1_october_volume", "oct_cancellations_high", "October cancellations are well above the other months",
          "october;cancel"),
        insight("t1_tutor_cancellations", "one_tutor_outlier", f"{gt['top_cancel_tutor_id']} is a clear outlier",
          f"{gt['top_cancel_tutor_id']};outlier"),
        insight("t2_cancellation_trend", "october_spike",
          f"The October cancellation rate is about {gt['oct_to_sep_cancel_ratio']}x the September rate, the most "
          "significant operational anomaly of the quarter", "october;september;anomal"),
        insight("t2_cancellation_trend", "november_recovery", "Cancellations returned to near-September levels in "
          "November", "november;returned"),
        insight("t2_attendance_and_gains", "positive_association", "Students who attended more sessions gained more",
          "attend;gain;more"),
        insight("t2_attendance_and_gains", "association_not_effect", "The association is observational, not an effect "
          "estimate", "observational", "true"),
        insight("t3_tutor_coaching", "coach_lowest_completion",
          f"Coach {gt['lowest_completion_tutor_id']} first: lowest completion rate",
          f"coach;{gt['lowest_completion_tutor_id']}"),
        insight("t3_school_scheduling", "support_school",
          f"Prioritise {gt['top_oct_cancel_school_id']} for scheduling support",
          f"{gt['top_oct_cancel_school_id']};scheduling"),
        insight("t4_subgroup_gains", "ell_gap", "English learners gained less than general-education students",
          "english learners;less"),
        insight("t4_suppressed_cells", "suppression_applied", "Cells under n<10 are suppressed, not estimated",
          "suppress", "true"),
        insight("t5_published_effects", "program_below_or_above",
          "The programme's effect is compared against the published range", "published;range"),
        insight("t5_evidence_strength", "rcts_dominate", "Two of three studies are randomised controlled trials",
          "randomised controlled"),
    ]


def _required_limitations() -> list[dict]:
    def limitation(tid, lid, text, terms):
        return {"pack_id": PACK_ID, "task_id": tid, "limitation_id": lid, "limitation_text": text,
                "match_terms": terms}

    return [
        limitation("t1_october_volume", "single_quarter",
                   "Data covers a single quarter; year-over-year comparisons are not supported", "single quarter"),
        limitation("t1_tutor_cancellations", "single_quarter", "Data covers a single quarter", "single quarter"),
        limitation("t2_cancellation_trend", "single_quarter",
                   "Data covers a single quarter; year-over-year comparisons are not supported", "single quarter"),
        limitation("t2_attendance_and_gains", "correlation_not_causation",
                   "Correlation between attendance and gains does not establish causation", "correlation;causation"),
        limitation("t3_tutor_coaching", "small_groups", "Group-level rates rest on few sessions", "few sessions"),
        limitation("t3_school_scheduling", "one_month", "October rates rest on one month of sessions", "one month"),
        limitation("t4_subgroup_gains", "n_threshold", "Subgroups below the n<10 reporting threshold are suppressed; "
                   "no rates can be reported or estimated for them", "suppress"),
        limitation("t4_suppressed_cells", "n_threshold", "Suppressed cells cannot be estimated", "suppress"),
        limitation("t5_published_effects", "context_differs",
                   "A single published study's effect size cannot be applied to this programme without acknowledging "
                   "differences in study population, design, and context", "population;design"),
        limitation("t5_evidence_strength", "few_studies", "Three studies are too few for a pooled estimate",
          "too few"),
    ]


def _forbidden_claims() -> list[dict]:
    def claim(tid, cid, text, terms):
        return {"pack_id": PACK_ID, "task_id": tid, "claim_id": cid, "claim_text": text, "match_terms": terms}

    return [
        claim("t1_october_volume", "yoy_claim", "Cancellations rose compared with last year", "last year"),
        claim("t2_cancellation_trend", "yoy_claim", "Cancellations rose compared with last year", "last year"),
        claim("t2_attendance_and_gains", "causal_claim", "Attending more sessions causes higher gains",
          "sessions causes"),
        claim("t3_tutor_coaching", "dismissal_claim", "The tutor should be dismissed", "dismiss"),
        claim("t4_subgroup_gains", "suppressed_rate", "A rate reported for a suppressed subgroup",
          "iep students gained"),
        claim("t4_suppressed_cells", "suppressed_rate", "A rate reported for a suppressed subgroup",
          "iep students gained"),
        claim("t5_published_effects", "transfer_claim", "The programme will produce the same effect as the study",
          "will produce the same"),
    ]


# ---------------------------------------------------------------------------------------------------------------
# responses


def _perturb(value: str, rel: float) -> str:
    d = Decimal(value) * (Decimal(1) + Decimal(str(rel)))
    return str(q2(d)) if "." in value else str(int(q2(d, "1")))


def _fmt(fact: dict, value: str, style: int) -> str:
    """Format a reported value: percent facts with '%', numbers sometimes in words/parentheses."""
    if fact["fact_kind"] == "string":
        return value
    if fact["unit"] == "percent":
        return f"{value}%" if style % 2 == 0 else f"{value} %"
    if style == 3:
        return f"({value})."
    return value


_SYNONYMS = [("October", "the tenth month"), ("September", "the ninth month"), ("November", "the eleventh month"),
             ("cancellations", "call-offs"), ("cancellation", "call-off"), ("Cancellations", "Call-offs"),
             ("anomaly", "irregularity"), ("gained", "improved"), ("attended", "joined"), ("suppressed", "withheld"),
             ("outlier", "exception"), ("observational", "correlational only"), ("Coach", "Mentor"),
             ("English learners", "ELL pupils"), ("randomised controlled", "randomised"), ("published", "reported"),
             ("scheduling", "timetable")]


def _paraphrase(text: str) -> str:
    """A paraphrase the word match misses (synonyms for the match terms); the synthetic judge recognises it."""
    for a, b in _SYNONYMS:
        text = text.replace(a, b)
    return "Roughly: " + text


def _response(rng, model, task, facts, insights, limits, claims, gt, run) -> dict:
    strong, mixed, weak = model == "synthetic-strong", model == "synthetic-mixed", model == "synthetic-weak"
    metrics, findings, limitations, notes = {}, [], [], []
    style = int(rng.random() * 4)
    for f in facts:
        gold = f["gold_value"]
        r = rng.random()
        if f["fact_kind"] == "string":
            if strong:
                v = gold
            elif mixed:
                # casefold match still passes ("GROSSE ALLEE" for "Große Allee")
                v = gold.upper() if (r < 0.5 or (f["fact_id"] == "top_school_name" and run % 2 == 0)) else gold
            else:
                v = {"ST-0042": "ST-42", "ACC-7A": "ACC-7"}.get(gold, gold if r < 0.4 else "unknown")
        else:
            if strong:
                v = gold
            elif mixed:
                v = gold if r < 0.7 else _perturb(gold, 0.15 if r < 0.85 else -0.08)
            else:
                v = _perturb(gold, 0.4 * (r - 0.3)) if r < 0.75 else ("-" + gold.lstrip("-") if r < 0.9 else gold)
        metrics[f["fact_id"]] = _fmt(f, v, style)
    # findings: insight texts (strong verbatim, mixed paraphrased / reordered, weak drifting)
    base = [i["insight_text"] for i in insights]
    fact_line = "; ".join(f"{k.replace('_', ' ')} {v}" for k, v in metrics.items())
    if strong:
        findings = base + [f"Key figures: {fact_line}"]
        if run % 2 == 0 and len(findings) > 1:
            findings[-1] = f"Key figures reported: {fact_line}"
    elif mixed:
        para = [(_paraphrase(t) if rng.random() < 0.35 else t) for t in base]
        findings = para + [f"Figures: {fact_line}"]
        if rng.random() < 0.5:
            findings = findings[::-1]
    else:
        drift = ["Numbers look broadly fine", "Several tutors may need support", "Scores went up overall",
                 "Some months were busier than others", "The data has a few gaps"]
        findings = [drift[int(rng.random() * len(drift))], f"Figures: {fact_line}"]
        if rng.random() < 0.4 and base:
            findings.insert(0, base[0])
    if task["track"] == 3:
        if weak:
            findings.append("Coach the tutors with weaker attendance and support the busiest school")
        else:
            findings.append(f"Evidence: sessions.csv status column; completion and cancellation rates per tutor "
                            f"({', '.join(v for k, v in metrics.items() if k.endswith('_id'))})")
    for lim in limits:
        if strong or (mixed and rng.random() < 0.6):
            limitations.append(lim["limitation_text"])
    if weak and rng.random() < 0.5:
        limitations.append("Results might vary")
    for c in claims:
        if (weak and rng.random() < 0.7) or (mixed and rng.random() < 0.1):
            notes.append({"yoy_claim": "Cancellations rose compared with last year.",
                          "causal_claim": "Attending more sessions causes higher gains.",
                          "dismissal_claim": "The tutor should be dismissed.",
                          "suppressed_rate": "IEP students gained 2 points at Oakwood Academy.",
                          "transfer_claim": "The programme will produce the same effect as ST-0042."}[c["claim_id"]])
    extra = {}
    if strong:
        extra["confidence_pct"] = "90"
    elif mixed:
        extra["confidence_pct"] = str(70 + int(rng.random() * 20))
    else:
        extra["confidence_pct"] = str(20 + int(rng.random() * 70))
    metrics.update(extra)
    lines = [f"## {task['title']}", "", "### Key findings"] + [f"- {x}" for x in findings]
    if limitations:
        lines += ["", "### Limitations"] + [f"- {x}" for x in limitations]
    if notes:
        lines += [""] + notes
    if not strong and rng.random() < 0.3:
        lines = [" ".join(lines).replace("#", "")]  # one run-on paragraph: poor structure
    return {"pack_id": PACK_ID, "task_id": task["task_id"], "model": model, "run": run,
            "key_findings": findings, "limitations": limitations, "structured_metrics": metrics,
            "raw_text": "\n".join(lines)}


def build_responses(rng: random.Random, gold: dict, gt: dict) -> tuple[list[dict], list[dict], list[dict]]:
    responses, ratings, verdicts = [], [], []

    def by_task(rows, tid):
        return [r for r in rows if r["task_id"] == tid]

    for model in MODELS:
        for task in gold["tasks"]:
            tid = task["task_id"]
            for run in range(1, RUNS + 1):
                resp = _response(rng, model, task, by_task(gold["gold_facts"], tid),
                                 by_task(gold["gold_insights"], tid), by_task(gold["required_limitations"], tid),
                                 by_task(gold["forbidden_claims"], tid), gt, run)
                responses.append(resp)
                quality = {"synthetic-strong": 3.4, "synthetic-mixed": 2.4, "synthetic-weak": 1.2}[model]
                for criterion in ("evidence_linkage", "structure_usability"):
                    score = max(0, min(4, int(quality + rng.random() * 1.2)))
                    ratings.append({"pack_id": PACK_ID, "task_id": tid, "model": model, "run": run,
                                    "criterion": criterion, "score": score, "rubric_id": "grade_judge",
                                    "rubric_version": 1, "judge_model": JUDGE_MODEL,
                                    "prompt_version": JUDGE_PROMPT,
                                    "reason": f"synthetic judge rating (quality tier {quality})",
                                    "rated_at": "2024-12-02T10:00:00"})
                if model == "synthetic-mixed":
                    # the judge recognises paraphrased insights the word match misses (fallback)
                    for ins in by_task(gold["gold_insights"], tid):
                        if _paraphrase(ins["insight_text"]) in resp["key_findings"]:
                            verdicts.append({"pack_id": PACK_ID, "task_id": tid, "model": model, "run": run,
                                             "check_kind": "gold_insight", "check_id": ins["insight_id"],
                                             "verdict": "present", "judge_model": JUDGE_MODEL,
                                             "prompt_version": JUDGE_PROMPT,
                                             "reason": "paraphrase of the gold insight"})
    return responses, ratings, verdicts


# ---------------------------------------------------------------------------------------------------------------
# writing


def _csv_text(rows: list[dict], columns: list[str] | None = None) -> str:
    columns = columns or list(rows[0].keys())
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


README = """# GRADE example pack `edu_example` -- SYNTHETIC

**Every row in this folder is synthetic**, written by `python -m evalhouse.grade.example_pack` with seed 42:
an invented tutoring programme (4 schools, 12 tutors, 24 groups, Sep-Nov 2024), invented published studies, and
invented responses of three synthetic models (`synthetic-strong`, `synthetic-mixed`, `synthetic-weak`) rated by a
synthetic judge (`synthetic-judge-1`, prompt `grade-judge-v1`). It exists to exercise the GRADE pack format
(`data/grade/PACK_FORMAT.md`) and the scoring end to end. Do not read any of it as real data or real model output.

- `data/*.csv`: the fixture data the tasks ask about.
- `ground_truth.json`: every gold value, computed from `data/*.csv` by the generator (`compute_ground_truth`);
  `gold_facts.csv` copies these values (`ground_truth_key`).
- `tasks.csv`, `task_weights.csv`, `gold_facts.csv`, `gold_insights.csv`, `required_limitations.csv`,
  `forbidden_claims.csv`: the task definitions.
- `responses.jsonl`: 3 models x 10 tasks x 5 runs; `judge_ratings.csv`, `judge_verdicts.csv`: judge output.

Regenerate (byte-identical): `.venv/bin/python -m evalhouse.grade.example_pack data/grade/packs/edu_example`.
"""


def render_pack(seed: int = SEED) -> dict[str, str]:
    """All files of the pack as {relative path: text}."""
    rng = random.Random(seed)
    data = generate_data(rng)
    gt = compute_ground_truth(data)
    gold = build_tasks(gt)
    responses, ratings, verdicts = build_responses(rng, gold, gt)
    files = {f"data/{name}.csv": _csv_text(rows) for name, rows in data.items()}
    files["ground_truth.json"] = json.dumps({"pack_id": PACK_ID, "synthetic": True, "seed": seed,
                                             "generator": "evalhouse.grade.example_pack", "values": gt},
                                            indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    files["pack.csv"] = _csv_text([{
        "pack_id": PACK_ID, "title": "Education analytics example (SYNTHETIC, seed 42)", "pack_version": "1",
        "synthetic": "true", "entity_id_regex": "(^|[^A-Za-z0-9])(T-[0-9]{3}|G-[0-9]{2}|S-[0-9]{2})([^0-9]|$)",
        "source": "generated by evalhouse.grade.example_pack (seed 42)"}])
    for name, rows in gold.items():
        files[f"{name}.csv"] = _csv_text(rows)
    files["responses.jsonl"] = "".join(json.dumps(r, ensure_ascii=False, sort_keys=True) + "\n" for r in responses)
    files["judge_ratings.csv"] = _csv_text(ratings)
    files["judge_verdicts.csv"] = _csv_text(verdicts, ["pack_id", "task_id", "model", "run", "check_kind",
                                                       "check_id", "verdict", "judge_model", "prompt_version",
                                                       "reason"])
    files["README.md"] = README
    return files


def write_pack(out_dir: Path, seed: int = SEED) -> list[Path]:
    out_dir = Path(out_dir)
    written = []
    for rel, text in render_pack(seed).items():
        p = out_dir / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8", newline="\n")
        written.append(p)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "data/grade/packs/edu_example")
    for p in write_pack(target):
        print(p)
