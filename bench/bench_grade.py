"""GRADE benchmark: 10k tasks x 10 models x 5 runs x 10 facts (5M fact checks) through grounding (SQL tolerance
join, fct_grade__fact_checks) and consistency (portable SQL: int_grade__consistency_findings, _clusters and
fct_grade__consistency).

    .venv/bin/python bench/bench_grade.py [--tasks 10000 --models 10 --runs 5 --facts 10]

Writes a synthetic pack in the GRADE pack format under bench/out/packs/ (deterministic, seed 42) and a suite
bench/out/suites/grade/ naming it as pack_dir, checks and lands that suite into bench/out/landing/ (the step
`make build` runs first; timed), then runs `dbt build` on it into bench/out/bench.duckdb (the project's warehouse
and landing are not touched) and prints dbt's per-node timings. 8 of the 10 facts per task are numeric (formats
vary: "12.5%", "(42).", "-3", "1,234"), 2 are strings.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
DIMS = ["grounding_accuracy", "insight_quality", "evidence_linkage", "calibration_limitation_handling",
        "consistency", "structure_usability"]
WEIGHTS = ["0.35", "0.20", "0.15", "0.15", "0.10", "0.05"]
WORDS = ("cancellation rate rose in october tutor group school attendance gains students subgroup effect study "
         "sessions completed scheduled november september trend anomaly outlier").split()


def write_pack(n_tasks: int, n_models: int, n_runs: int, n_facts: int) -> Path:
    rng = random.Random(42)
    packs = OUT / "packs"
    d = packs / "bench"
    d.mkdir(parents=True, exist_ok=True)
    (d / "pack.csv").write_text("pack_id,title,pack_version,synthetic,entity_id_regex,source\n"
                                "bench,benchmark (SYNTHETIC),1,true,T-[0-9]+,bench_grade.py\n", encoding="utf-8")
    with open(d / "tasks.csv", "w", encoding="utf-8") as t, open(d / "task_weights.csv", "w", encoding="utf-8") as w, \
            open(d / "gold_facts.csv", "w", encoding="utf-8") as g:
        t.write("pack_id,task_id,track,title,prompt\n")
        w.write("pack_id,task_id,dimension,weight\n")
        g.write("pack_id,task_id,fact_id,fact_kind,gold_value,unit,abs_tol,rel_tol,ground_truth_key,description\n")
        for i in range(n_tasks):
            tid = f"t{i:05d}"
            t.write(f"bench,{tid},{i % 5 + 1},task {i},prompt\n")
            for dim, wt in zip(DIMS, WEIGHTS):
                w.write(f"bench,{tid},{dim},{wt}\n")
            for f in range(n_facts):
                if f < n_facts - 2:
                    g.write(f"bench,{tid},f{f},numeric,{rng.randint(1, 5000) / 10},,0.05,0.01,f{f},\n")
                else:
                    g.write(f"bench,{tid},f{f},string,ID-{rng.randint(1, 999):04d},,,,f{f},\n")
    for name, header in [("gold_insights", "pack_id,task_id,insight_id,insight_text,match_terms,about_uncertainty"),
                         ("required_limitations", "pack_id,task_id,limitation_id,limitation_text,match_terms"),
                         ("forbidden_claims", "pack_id,task_id,claim_id,claim_text,match_terms"),
                         ("judge_ratings", "pack_id,task_id,model,run,criterion,score,rubric_id,rubric_version,"
                                           "judge_model,prompt_version,reason,rated_at"),
                         ("judge_verdicts", "pack_id,task_id,model,run,check_kind,check_id,verdict,judge_model,"
                                            "prompt_version,reason")]:
        (d / f"{name}.csv").write_text(header + "\n", encoding="utf-8")
    gold = {}
    for line in (d / "gold_facts.csv").read_text(encoding="utf-8").splitlines()[1:]:
        p = line.split(",")
        gold.setdefault(p[1], []).append((p[2], p[3], p[4]))
    with open(d / "responses.jsonl", "w", encoding="utf-8") as fh:
        for i in range(n_tasks):
            tid = f"t{i:05d}"
            base = [" ".join(rng.choice(WORDS) for _ in range(8)) for _ in range(4)]
            for m in range(n_models):
                for run in range(1, n_runs + 1):
                    metrics = {}
                    for fid, kind, val in gold[tid]:
                        r = rng.random()
                        if kind == "string":
                            metrics[fid] = val if r < 0.8 else val.lower() if r < 0.9 else "ID-" + val[-2:]
                        else:
                            v = float(val) * (1 + (rng.random() - 0.5) * 0.1) if r < 0.5 else float(val)
                            metrics[fid] = rng.choice([f"{v:.1f}", f"({v:.2f}).", f"{v:.1f}%", f"about {v:,.1f} units"])
                    findings = base[:3] if rng.random() < 0.6 else [base[1], base[0], base[3]]
                    fh.write(json.dumps({"pack_id": "bench", "task_id": tid, "model": f"m{m}", "run": run,
                                         "key_findings": findings, "limitations": ["single quarter"],
                                         "structured_metrics": metrics, "raw_text": " ".join(findings)}) + "\n")
    return packs


def land_suite(packs: Path) -> dict[str, int]:
    """Check and land a suite `grade` whose pack_dir is ``packs`` (the project's suite.yml otherwise)."""
    from evalhouse.suites.land import check_all, land

    folder = OUT / "suites" / "grade"
    folder.mkdir(parents=True, exist_ok=True)
    spec = (ROOT / "suites" / "grade" / "suite.yml").read_text(encoding="utf-8")
    (folder / "suite.yml").write_text(spec.replace("pack_dir: ../../data/grade/packs", f"pack_dir: {packs}"),
                                      encoding="utf-8")
    suites, problems = check_all(folder.parent)
    if problems:
        raise SystemExit("\n".join(str(p) for p in problems[:20]))
    return land(suites, OUT / "landing")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tasks", type=int, default=10_000)
    ap.add_argument("--models", type=int, default=10)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--facts", type=int, default=10)
    args = ap.parse_args()
    t0 = time.perf_counter()
    packs = write_pack(args.tasks, args.models, args.runs, args.facts)
    t_gen = time.perf_counter() - t0
    t0 = time.perf_counter()
    counts = land_suite(packs)
    t_land = time.perf_counter() - t0
    db = OUT / "bench.duckdb"
    if db.exists():
        db.unlink()
    env = dict(os.environ, EVALHOUSE_DB=str(db), DBT_PROFILES_DIR=str(ROOT), EVALHOUSE_PROJECT_DIR=str(ROOT),
               EVALHOUSE_LANDING_DIR=str(OUT / "landing"), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    dbt = Path(sys.executable).parent / "dbt"
    cmd = [str(dbt), "build", "--no-use-colors", "--select", "+fct_grade__fact_checks", "+fct_grade__consistency",
           "--exclude", "resource_type:unit_test",
           # only the tests whose every parent is selected (the project's singular tests that also read the ratings
           # store, not built here, failed the run with "Table ... does not exist")
           "--indirect-selection", "cautious", "--target-path", str(OUT / "target"),
           "--log-path", str(OUT / "logs"), "--vars", f"{{grade_packs_dir: '{packs}'}}"]
    t1 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    t_dbt = time.perf_counter() - t1
    if proc.returncode != 0:
        print(proc.stdout[-4000:], proc.stderr[-2000:])
        raise SystemExit(proc.returncode)
    results = json.loads((OUT / "target" / "run_results.json").read_text(encoding="utf-8"))
    timing = {r["unique_id"].split(".")[-1]: r["execution_time"] for r in results["results"]}
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        n_checks = con.execute("select count(*) from fct_grade__fact_checks where suite = 'grade'").fetchone()[0]
        n_cons = con.execute("select count(*) from fct_grade__consistency").fetchone()[0]
    print(f"pack generation (not timed by the target): {t_gen:.1f} s")
    print(f"suite check + landing of the pack: {t_land:.1f} s (responses {counts['responses']:,}, response labels "
          f"{counts['response_labels']:,}, gold {counts['gold']:,})")
    print(f"dbt build (whole selection incl. start-up, staging, tests): {t_dbt:.1f} s")
    grounding = ["int_response_labels", "int_gold", "int_responses", "fct_grade__fact_checks"]
    for node in grounding + ["stg_grade__response_items", "int_grade__consistency_findings",
                             "int_grade__consistency_clusters", "fct_grade__consistency"]:
        print(f"  {node:32s} {timing.get(node, float('nan')):7.2f} s")
    print(f"grounding path (check + landing, labels + gold + responses + fact checks): "
          f"{t_land + sum(timing.get(n, 0) for n in grounding):.1f} s")
    print(f"fact checks: {n_checks:,} rows; consistency: {n_cons:,} model x task rows")


if __name__ == "__main__":
    main()
