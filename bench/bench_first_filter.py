"""Benchmark: the product's first filter (the dbt models) beside the bare DuckDB floor, on the same replies.

Usage: .venv/bin/python bench/bench_first_filter.py [--sizes 10000 100000 1000000] [--gen ../shared/perf/gen_data.py]
       [--keep DIR]

For each size N it generates N replies with the performance generator (seed 1; not timed), then times as whole
processes, with GNU time (wall seconds, peak RSS of the largest process):
  floor  bench/first_filter_floor.py: one DuckDB query (lenient JSON, substring phrases, naive sentence stops);
  cold   `dbt run -s +fct_first_filter_by_run` on an empty warehouse: the same replies as a suite folder `ffbench`
         (first_filter: true; items, responses and gold as Parquet, written from the JSONL and checked and landed
         by `evalhouse suite land` before the timed run; the project's own suites are left out);
         int_text_checks checks every distinct reply text;
  warm   the same command again: the text checks are stored, nothing is new.
It prints one line per measurement, then a table with the ratio to the floor and the growth from the previous
size, and the per-run pass counts of the product and of the floor (their rules differ: strict JSON, whole words,
negation, language and pysbd-equivalent sentence counts in the product).
The project is copied to a temporary folder; partial parsing is kept across sizes.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
SELECTOR = "+fct_first_filter_by_run"


SUITE_YML = """title: First filter benchmark (generated replies, seed 1)
description: Replies of ../shared/perf/gen_data.py, one item each, with the expected language and phrases as gold.
licence: generated
attribution: bench/bench_first_filter.py
first_filter: true
"""
FENCE = re.compile(r"^```json\n(.*)\n```$", re.S)


def write_suite(data: Path, folder: Path) -> None:
    """The generated replies (id, run, lang, text, required, forbidden) as a suite folder: item i<id> with its
    language, gold language / required_phrase / forbidden_phrase, response r<id> of system_id <run> whose
    response_text is the "answer" of the JSON (or of its ```json fence), or the whole text when it does not parse."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    items, responses, gold = [], [], []
    with open(data, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            item, text = f"i{r['id']}", r["text"]
            m = FENCE.match(text)
            try:
                obj = json.loads(m.group(1) if m else text)
            except ValueError:
                obj = None
            answer = obj.get("answer") if isinstance(obj, dict) else None
            items.append({"item_id": item, "language": r["lang"]})
            responses.append({"response_id": f"r{r['id']}", "item_id": item, "system_id": r["run"],
                              "response_text": answer if isinstance(answer, str) else text, "raw_output": text})
            gold.append({"item_id": item, "gold_kind": "language", "gold_key": "language", "gold_value": r["lang"]})
            gold += [{"item_id": item, "gold_kind": kind, "gold_key": p, "gold_value": p}
                     for kind, phrases in (("required_phrase", r["required"]), ("forbidden_phrase", r["forbidden"]))
                     for p in dict.fromkeys(phrases)]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "suite.yml").write_text(SUITE_YML, encoding="utf-8")
    for name, rows in (("items", items), ("responses", responses), ("gold", gold)):
        cols = list(rows[0])
        pq.write_table(pa.table({c: pa.array([row[c] for row in rows], type=pa.string()) for c in cols}),
                       folder / f"{name}.parquet")


def timed(cmd: list[str], cwd: Path, env: dict) -> tuple[float, float, str]:
    """(wall s, peak RSS MiB, stdout) of one whole process, by GNU time."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as tf:
        res = subprocess.run(["/usr/bin/time", "-o", tf.name, "-f", "%e %M", *cmd], cwd=cwd, env=env,
                             capture_output=True, text=True)
        if res.returncode != 0:
            print(res.stdout[-3000:], res.stderr[-3000:])
            raise SystemExit(f"failed: {' '.join(cmd)}")
        wall, kib = tf.read().split()[-2:]
    return float(wall), int(kib) / 1024, res.stdout


def load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    ap.add_argument("--gen", type=Path, default=PROJECT.parent.parent / "shared" / "perf" / "gen_data.py")
    ap.add_argument("--keep", type=Path, default=None)
    a = ap.parse_args()
    tmp = Path(a.keep or tempfile.mkdtemp(prefix="evalhouse-ffbench-"))
    proj = tmp / "project"
    if proj.exists():
        shutil.rmtree(proj)
    shutil.copytree(PROJECT, proj, ignore=shutil.ignore_patterns(
        ".venv", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "bench"))
    # Only the benchmark's suite: the project's suite folders are left out, so only its replies are checked.
    shutil.rmtree(proj / "suites")
    (proj / "suites").mkdir()
    data = tmp / "replies.jsonl"
    db = proj / "warehouse" / "build" / "evalhouse.duckdb"
    env = dict(os.environ, DBT_PROFILES_DIR=str(proj), EVALHOUSE_PROJECT_DIR=str(proj), EVALHOUSE_DB=str(db),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    dbt = str(Path(sys.executable).with_name("dbt"))
    run = [dbt, "run", "--no-use-colors", "-s", SELECTOR]
    floor = [sys.executable, str(PROJECT / "bench" / "first_filter_floor.py"), str(data)]
    rows = []
    # Parse once (not timed), so every timed dbt run uses the same partial parse.
    subprocess.run([dbt, "parse", "--no-use-colors"], cwd=proj, env=env, capture_output=True)
    for n in a.sizes:
        subprocess.run([sys.executable, str(a.gen), str(n), str(data)], check=True)
        write_suite(data, proj / "suites" / "ffbench")
        if db.parent.exists():
            shutil.rmtree(db.parent)
        db.parent.mkdir(parents=True)
        subprocess.run([str(Path(sys.executable).with_name("evalhouse")), "suite", "land"], cwd=proj, env=env,
                       check=True, capture_output=True)  # check and land the suite (not timed)
        lf = load()
        f_wall, f_mem, f_out = timed(floor, proj, env)
        c_wall, c_mem, _ = timed(run, proj, env)
        w_wall, w_mem, _ = timed(run, proj, env)
        f2_wall, f2_mem, _ = timed(floor, proj, env)
        floor_wall, floor_mem = min(f_wall, f2_wall), max(f_mem, f2_mem)
        print(f"N={n}: floor {f_wall:.2f}/{f2_wall:.2f} s {floor_mem:.0f} MiB | product cold {c_wall:.1f} s "
              f"{c_mem:.0f} MiB, warm {w_wall:.1f} s {w_mem:.0f} MiB | load before {lf}, after {load()}",
              flush=True)
        import duckdb

        con = duckdb.connect(str(db), read_only=True)
        prod = con.execute("select system_id, n_replies, n_pass, pass_share from fct_first_filter_by_run "
                           "order by system_id").fetchall()
        con.close()
        rows.append((n, floor_wall, floor_mem, c_wall, c_mem, w_wall, w_mem))
        print("  product run,n,n_pass,share: " + "; ".join(f"{r[0]},{r[1]},{r[2]},{r[3]:.4f}" for r in prod))
        print("  floor   run,n,n_pass,share: " + "; ".join(f_out.strip().splitlines()[1:]))
    print("\n| replies | floor s | floor MiB | cold s | cold MiB | cold / floor | warm s | warm MiB | warm / floor "
          "| cold growth | floor growth |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    prev = None
    for n, fw, fm, cw, cm, ww, wm in rows:
        growth = (f"{cw / prev[3]:.1f}x for {n / prev[0]:.0f}x replies", f"{fw / prev[1]:.1f}x") if prev else ("", "")
        print(f"| {n:,} | {fw:.2f} | {fm:.0f} | {cw:.1f} | {cm:.0f} | {cw / fw:.1f} | {ww:.1f} | {wm:.0f} | "
              f"{ww / fw:.1f} | {growth[0]} | {growth[1]} |")
        prev = (n, fw, fm, cw)
    if not a.keep:
        shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
