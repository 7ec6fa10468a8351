"""Benchmark: a Larkfield-shaped suite of N replies x 4 criteria x 2 raters, landed and rescored with `dbt build`.

Usage: .venv/bin/python bench/bench_larkfield.py [--replies 100000] [--keep DIR] [--select SELECTOR] [--spark]

It copies the project to a temporary folder and writes a suite folder `suites/synth/` (suite.yml: Larkfield's
rubric under the id synth_support, first_filter on; items, gold, responses, response_labels and ratings as
Parquet, generated with a fixed seed), exactly as a team would bring its own runs. Then it times, as separate
steps: `evalhouse suite land` (check + landing of every suite), and `evalhouse build --no-publish` (dbt build:
seeds, models and data tests; no unit tests) of every node twice: cold (empty warehouse) and warm (`--all-nodes`: a
rebuild with the text checks already computed); then (--import-share, default 0.01) two ratings imports, each
touching that share of the replies (a new ratings store file re-rating every criterion of those replies, later
rated_at: the incremental rating chain recomputes only them): the first rebuilt with `--all-nodes` (every node, as
a plain `dbt build` does), the second as `evalhouse build` does by default (only the changed sources and what is
downstream of them: evalhouse.warehouse.build_state); last a `--full-refresh` rebuild, with the ratio of each import
rebuild to it for the whole build and for the rating chain's nodes (macros/rating_chain.sql). With --select, plain
`dbt build --select SELECTOR` (unit tests excluded) for every step and one import.
With --spark (needs make spark-setup and Java 17+) the same project, synthetic suite included, is then built on
local Spark and every shared mart compared with the last DuckDB build (bench/compare_spark.py --build), timed.
Reply texts are all distinct (ticket id + model + sentences drawn from pools), the worst
case for the text checks, whose cost grows with distinct texts. Prints one line per measurement (wall seconds and
peak RSS of the process tree, by GNU time), the ten slowest nodes of each build and the first filter's nodes (and
fct_model_run_score_intervals, fct_stale_ratings) from run_results.json.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import yaml

PROJECT = Path(__file__).resolve().parents[1]
CRITERIA = ["correctness", "completeness", "format_compliance", "appropriate_abstention"]
EN = ["Thank you for your message.", "Your refund will arrive within 30 days.", "We are sorry for the delay.",
      "The shipping fee is refunded to your original payment method.", "A member of our team will contact you.",
      "Plants and seeds cannot be returned.", "Your order L-{n} is on its way.", "Please keep your receipt.",
      "We cannot send you your password.", "The warranty covers defects for 2 years."]
FR = ["Merci pour votre message.", "Votre remboursement arrivera sous 30 jours.", "Nous sommes désolés du retard.",
      "Les frais de livraison vous sont remboursés.", "Un membre de notre équipe vous contactera.",
      "Les plantes et les graines ne peuvent pas être retournées.", "Votre commande L-{n} est en route.",
      "Nous ne pouvons pas vous envoyer votre mot de passe.", "La garantie couvre les défauts pendant 2 ans."]


def generate(out: Path, n_replies: int, seed: int = 42) -> None:
    rng = random.Random(seed)
    n_models = 20
    n_items = max(1, n_replies // n_models)
    items, gold, responses, labels, ratings = [], [], [], [], []
    for i in range(n_items):
        lang = "fr" if i % 3 == 0 else "en"
        item_id = f"T{i:06d}"
        items.append((item_id, lang, "delivery", f"ticket {i}", "key"))
        gold += [(item_id, "language", "language", lang), (item_id, "label", "needs_human", "false"),
                 (item_id, "required_phrase", "30 days" if lang == "en" else "30 jours",
                  "30 days" if lang == "en" else "30 jours")]
        if i % 10 == 0:
            gold.append((item_id, "forbidden_phrase", "send your password", "send your password"))
    row = 0
    for i in range(n_items):
        item_id, lang = items[i][0], items[i][1]
        pool = FR if lang == "fr" else EN
        for m in range(n_models):
            if len(responses) >= n_replies:
                break
            rid = f"synth-{item_id}-m{m:02d}-r1"
            text = " ".join(s.format(n=i * 100 + m) for s in rng.sample(pool, rng.randint(2, 5)))
            raw = '{"reply": "...", "needs_human": false}' if m % 4 else '```json\n{"reply": "..."}\n```'
            responses.append((rid, item_id, f"model-{m:02d}", 1, text, raw))
            labels.append((rid, "needs_human", rng.choice(["false", "false", "true"])))
            for rater in ("rater_a", "rater_b"):
                for c in CRITERIA:
                    row += 1
                    ratings.append((row, rid, rater, c, str(rng.choice([0, 1, 2, 2, 2])), "", 1))
    out.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(items, columns=["item_id", "language", "category", "input_text", "reference_text"]).to_parquet(
        out / "items.parquet")
    pd.DataFrame(gold, columns=["item_id", "gold_kind", "gold_key", "gold_value"]).to_parquet(out / "gold.parquet")
    pd.DataFrame(responses, columns=["response_id", "item_id", "system_id", "repetition", "response_text",
                                     "raw_output"]).to_parquet(out / "responses.parquet")
    pd.DataFrame(labels, columns=["response_id", "label_name", "label_value"]).to_parquet(
        out / "response_labels.parquet")
    pd.DataFrame([r[1:] for r in ratings], columns=["response_id", "rater_id", "criterion", "score", "reason",
                                                    "rubric_version"]).astype({"rubric_version": "int32"}).to_parquet(
        out / "ratings.parquet")
    spec = yaml.safe_load((PROJECT / "suites" / "larkfield" / "suite.yml").read_text())
    spec.update(title="Synthetic Larkfield-shaped benchmark suite", licence="CC0-1.0",
                attribution="Generated by bench/bench_larkfield.py", first_filter=True)
    for rubric in spec["rubrics"]:
        rubric["rubric_id"] = rubric["rubric_id"].replace("larkfield", "synth")
    (out / "suite.yml").write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True))


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall s, peak RSS MiB, result) of one whole process, by GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        res = subprocess.run(["/usr/bin/time", "-o", tf.name, "-f", "%e %M", *cmd], cwd=cwd, env=env,
                             capture_output=True, text=True)
        wall, kib = tf.read().split()[-2:]
    return float(wall), int(kib) / 1024, res


CHAIN = ("int_rating_groups", "int_rating_changes", "int_ratings", "fct_ratings", "int_effective_scores",
         "int_reply_scores", "int_rater_pair_scores", "int_reliability_scores", "int_reliability_units",
         "fct_criterion_scores", "fct_reply_scores")


def chain_seconds(proj: Path) -> float:
    """Seconds the rating chain's models took in the last dbt run (run_results.json)."""
    results = json.loads((proj / "target" / "run_results.json").read_text())["results"]
    return sum(r["execution_time"] for r in results if r["unique_id"].startswith("model.")
               and r["unique_id"].split(".")[-1] in CHAIN)


def write_import(proj: Path, n_replies: int, share: float, seed: int = 7) -> int:
    """A ratings store file re-rating (later rated_at) every criterion of `share` of the replies; returns replies.
    Another seed writes another file (and mostly other replies)."""
    rng = random.Random(seed)
    n_models = 20
    n_items = max(1, n_replies // n_models)
    ids = [f"synth-T{i:06d}-m{m:02d}-r1" for i in range(n_items) for m in range(n_models)][:n_replies]
    picked = rng.sample(ids, max(1, int(len(ids) * share)))
    rows = [{"suite": "synth", "response_id": rid, "packet_id": "", "letter": "", "rater_id": "rater_a",
             "rater_kind": "human", "criterion": c, "score": str(rng.choice([0, 1, 2])), "reason": "re-rated",
             "rubric_id": "synth_support", "rubric_version": 1, "is_blind": "", "rated_at": "2030-01-01T00:00:00"}
            for rid in picked for c in CRITERIA]
    out = proj / "data" / "ratings" / "synth"
    out.mkdir(parents=True, exist_ok=True)
    frame = pd.DataFrame(rows)
    frame["store_row"] = range(1, len(frame) + 1)
    frame.to_csv(out / f"20300101T000000Z_rater_a_import_{seed}.csv", index=False)
    return len(picked)


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def slowest(proj: Path, n: int = 10) -> str:
    results = json.loads((proj / "target" / "run_results.json").read_text())["results"]
    top = sorted(results, key=lambda r: -r["execution_time"])[:n]
    return ", ".join(f"{_node_name(r['unique_id'])} {r['execution_time']:.1f}" for r in top)


def _node_name(unique_id: str) -> str:
    """A model's name; a data test's generated name (its unique_id ends in a hash), cut to 60 characters."""
    parts = unique_id.split(".")
    return parts[2][:60] if parts[0] == "test" and len(parts) > 3 else parts[-1]


def spark_step(proj: Path, env: dict) -> None:
    """The same project (synthetic suite included) built on local Spark and compared with the last DuckDB build:
    bench/compare_spark.py --build run inside the copy, so it reads the copy's landing files and warehouse."""
    (proj / "bench").mkdir(exist_ok=True)
    for name in ("compare_spark.py", "compare_builds.py"):
        shutil.copy(PROJECT / "bench" / name, proj / "bench" / name)
    wall, mib, res = timed([sys.executable, str(proj / "bench" / "compare_spark.py"), "--build"], proj, env)
    lines = res.stdout.splitlines()
    build_line = next((ln for ln in lines if ln.startswith("spark build:")), "spark build: (no line)")
    summary = [ln for ln in lines if ln.startswith("spark-test summary") or " marts compared:" in ln
               or ln.startswith("FAIL ")]
    print(f"spark (build + comparison, process tree): {wall:.1f} s, peak {mib:.0f} MiB, {load()}, "
          f"exit {res.returncode}; {build_line}")
    for ln in summary:
        print(f"  {ln[:400]}")
    if res.returncode != 0:
        print(res.stdout[-3000:], res.stderr[-2000:])
        sys.exit(1)


# the first filter's nodes, and two marts read after every ratings import
WATCHED = ("int_first_filter_responses", "int_text_checks", "int_phrase_checks", "int_first_filter",
           "fct_first_filter", "fct_first_filter_by_run", "fct_model_run_score_intervals", "fct_stale_ratings")


def node_seconds(proj: Path, names: tuple[str, ...]) -> str:
    """Seconds of the named models in the last dbt run (run_results.json), in the given order."""
    results = json.loads((proj / "target" / "run_results.json").read_text())["results"]
    seconds = {r["unique_id"].split(".")[-1]: r["execution_time"] for r in results
               if r["unique_id"].startswith("model.")}
    return ", ".join(f"{n} {seconds[n]:.1f}" for n in names if n in seconds)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--replies", type=int, default=100_000)
    ap.add_argument("--keep", type=Path, default=None, help="keep the temporary project here")
    ap.add_argument("--select", default=None, help="dbt selector instead of the whole project (e.g. +fct_ratings)")
    ap.add_argument("--import-share", type=float, default=0.01,
                    help="share of the replies a ratings import re-rates before the import rebuild (0: skip)")
    ap.add_argument("--spark", action="store_true",
                    help="after the DuckDB builds, build the portable core on local Spark (make spark-setup) and "
                         "compare every shared mart with DuckDB's (bench/compare_spark.py --build), timed")
    args = ap.parse_args()
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="evalhouse-bench-"))
    proj = tmp / "project"
    if proj.exists():
        shutil.rmtree(proj)
    shutil.copytree(PROJECT, proj, ignore=shutil.ignore_patterns(
        ".venv", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "bench"))
    t = time.perf_counter()
    generate(proj / "suites" / "synth", args.replies)
    print(f"generated {args.replies} replies x 4 criteria x 2 raters in {time.perf_counter() - t:.1f} s")
    build = proj / "warehouse" / "build"
    env = dict(os.environ, DBT_PROFILES_DIR=str(proj), EVALHOUSE_PROJECT_DIR=str(proj),
               EVALHOUSE_DB=str(build / "evalhouse.duckdb"), EVALHOUSE_LANDING_DIR=str(build / "landing"))
    build.mkdir(parents=True)
    bindir = Path(sys.executable).parent
    wall, mib, res = timed([str(bindir / "evalhouse"), "suite", "land"], proj, env)
    print(f"suite land (check + landing of every suite): {wall:.1f} s, peak {mib:.0f} MiB, exit {res.returncode}")
    if res.returncode != 0:
        print(res.stdout[-3000:], res.stderr[-3000:])
        sys.exit(1)
    cmd = [str(bindir / "dbt"), "build", "--no-use-colors", "--exclude", "test_type:unit"]
    if args.select:
        cmd += ["--select", args.select]
    build_cmd = [str(bindir / "evalhouse"), "build", "--no-publish"]
    imports = (["import"] if args.select else ["import", "import-changed"]) if args.import_share > 0 else []
    steps = ["cold", "warm", *imports] + (["full-refresh"] if imports else [])
    figures = {}
    for label in steps:
        if label.startswith("import"):
            seed = 7 if label == "import" else 8
            n = write_import(proj, args.replies, args.import_share, seed=seed)
            print(f"ratings import: {n} replies x {len(CRITERIA)} criteria re-rated (new ratings store file)")
        extra = {"warm": ["--all-nodes"], "import": ["--all-nodes"], "full-refresh": ["--full-refresh"]}.get(label, [])
        if args.select:
            extra = ["--full-refresh"] if label == "full-refresh" else []
        step_cmd = (cmd if args.select else build_cmd) + extra
        wall, mib, res = timed(step_cmd, proj, env)
        tail = [ln for ln in res.stdout.splitlines() if "Done." in ln or "ERROR" in ln or "FAIL" in ln]
        figures[label] = (wall, chain_seconds(proj))
        how = f"{Path(step_cmd[0]).name} build" + (" --all-nodes" if "--all-nodes" in step_cmd else "")
        if label == "import" and not args.select:
            how += " (every node)"
        elif label == "import-changed":
            how += " (what changed)"
        print(f"{how} ({label}): {wall:.1f} s, peak {mib:.0f} MiB, rating chain {figures[label][1]:.1f} s, "
              f"{load()}, exit {res.returncode}; {tail[-1].strip() if tail else ''}")
        if res.returncode != 0:
            print(res.stdout[-4000:], res.stderr[-2000:])
            sys.exit(1)
        plan = [ln for ln in res.stdout.splitlines()
                if ln.startswith(("changed since the last build", "every node runs", "nothing changed"))]
        if plan:
            print(f"  {plan[0].strip()}")
        print(f"  slowest nodes (s): {slowest(proj)}")
        print(f"  first filter and other watched nodes (s): {node_seconds(proj, WATCHED)}")
    for label in imports:
        (w_imp, c_imp), (w_full, c_full) = figures[label], figures["full-refresh"]
        print(f"{label} rebuild / full rebuild: whole build {w_imp:.1f} / {w_full:.1f} s = {w_imp / w_full:.1%}; "
              f"rating chain {c_imp:.1f} / {c_full:.1f} s = {c_imp / c_full:.1%}")
    if args.spark:
        spark_step(proj, env)
    import duckdb

    con = duckdb.connect(str(build / "evalhouse.duckdb"), read_only=True)
    print("rows:", dict(con.execute(
        "select 'fct_reply_scores', count(*) from fct_reply_scores where suite = 'synth' union all "
        "select 'fct_ratings', count(*) from fct_ratings where suite = 'synth' union all "
        "select 'fct_first_filter', count(*) from fct_first_filter where suite = 'synth'").fetchall()))
    if not args.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
