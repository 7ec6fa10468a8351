"""Benchmark: `dbt build` on a synthetic Larkfield-shaped suite of N replies x 4 criteria x 2 raters.

Usage: .venv/bin/python bench/bench_larkfield.py [--replies 100000] [--keep DIR]

It copies the project to a temporary folder, adds a suite folder `synth` (Parquet files written with a fixed seed,
and larkfield's suite.yml with the rubric id synth_support), checks and lands every suite (`evalhouse suite land`,
not timed), and times a full `dbt build` (seeds, all models, all tests) twice: cold (empty
warehouse) and warm (a rebuild with the text checks already computed, as after a ratings import). Reply texts are
all distinct (ticket id + model + sentences drawn from pools), the worst case for the text checks, whose cost grows
with distinct texts. Prints one line per measurement.
"""
from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

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
                    ratings.append((rid, rater, c, str(rng.choice([0, 1, 2, 2, 2])), "", "1", "true"))
    out.mkdir(parents=True, exist_ok=True)
    spec = (PROJECT / "suites" / "larkfield" / "suite.yml").read_text(encoding="utf-8")
    (out / "suite.yml").write_text(spec.replace("rubric_id: larkfield_support", "rubric_id: synth_support").replace(
        "title: Larkfield support replies", "title: Synthetic Larkfield-shaped replies (bench, seed 42)"),
        encoding="utf-8")
    pd.DataFrame(items, columns=["item_id", "language", "category", "input_text", "reference_text"]).to_parquet(
        out / "items.parquet")
    pd.DataFrame(gold, columns=["item_id", "gold_kind", "gold_key", "gold_value"]).to_parquet(out / "gold.parquet")
    pd.DataFrame(responses, columns=["response_id", "item_id", "system_id", "repetition", "response_text",
                                     "raw_output"]).to_parquet(out / "responses.parquet")
    pd.DataFrame(labels, columns=["response_id", "label_name", "label_value"]).to_parquet(
        out / "response_labels.parquet")
    pd.DataFrame(ratings, columns=["response_id", "rater_id", "criterion", "score", "reason", "rubric_version",
                                   "is_blind"]).to_parquet(out / "ratings.parquet")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--replies", type=int, default=100_000)
    ap.add_argument("--keep", type=Path, default=None, help="keep the temporary project here")
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
    env = dict(os.environ, DBT_PROFILES_DIR=str(proj), EVALHOUSE_PROJECT_DIR=str(proj),
               EVALHOUSE_DB=str(proj / "warehouse" / "build" / "evalhouse.duckdb"))
    (proj / "warehouse" / "build").mkdir(parents=True)
    dbt = str(Path(sys.executable).with_name("dbt"))
    t = time.perf_counter()
    res = subprocess.run([str(Path(sys.executable).with_name("evalhouse")), "suite", "land"], cwd=proj, env=env,
                         capture_output=True, text=True)
    if res.returncode != 0:
        sys.exit(res.stderr[-4000:])
    print(f"suite check + landing (not timed below): {time.perf_counter() - t:.1f} s")
    for label in ("cold", "warm"):
        t = time.perf_counter()
        res = subprocess.run([dbt, "build", "--no-use-colors", "--exclude", "test_type:unit"], cwd=proj, env=env,
                             capture_output=True, text=True)
        elapsed = time.perf_counter() - t
        tail = [ln for ln in res.stdout.splitlines() if "Done." in ln or "ERROR" in ln or "FAIL" in ln]
        print(f"dbt build ({label}): {elapsed:.1f} s, exit {res.returncode}; {tail[-1] if tail else ''}")
        if res.returncode != 0:
            print(res.stdout[-4000:])
            sys.exit(1)
    import duckdb

    con = duckdb.connect(str(proj / "warehouse" / "build" / "evalhouse.duckdb"), read_only=True)
    print("rows:", dict(con.execute(
        "select 'fct_reply_scores', count(*) from fct_reply_scores union all "
        "select 'fct_ratings', count(*) from fct_ratings union all "
        "select 'fct_first_filter', count(*) from fct_first_filter").fetchall()))
    if not args.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
