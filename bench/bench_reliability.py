"""Benchmark: the reliability and judge marts on a synthetic 200k units x 3 raters x 6 criteria data set.

Builds, in a scratch DuckDB database, a table shaped exactly like ``int_reliability_scores`` (200,000 responses over
20 systems, 3 human rater positions and 1 LLM judge, 6 criteria on a 1-5 scale, reply lengths), then times what the
Python dbt models of models/marts/reliability/ do: read the table into pandas (``dbt.ref(...).df()``) and run each
evalhouse.stats.reliability function (the judge-human marts: int_reliability_cells made in DuckDB by score_cells,
then their functions on it). Not a timed test; run ``python bench/bench_reliability.py [--units N]``.
"""
from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb
import numpy as np
import pandas as pd

from evalhouse.stats import reliability


def synthetic(units: int, raters: int, criteria: int, systems: int, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    system_of = rng.integers(0, systems, units)
    quality = rng.normal(0, 1, (units, criteria)) + (system_of[:, None] - systems / 2) * 0.1
    chars = rng.integers(50, 2000, units)
    frames = []
    for c in range(criteria):
        for r in range(raters + 1):
            noise = rng.normal(0, 0.8, units)
            score = np.clip(np.round(3 + quality[:, c] + noise), 1, 5)
            kind = "human" if r < raters else "judge"
            if kind == "judge":
                score = np.clip(score + 0.3 + chars / 4000, 1, 5).round(2)   # a lenient, length-loving judge
            missing = rng.random(units) < 0.01                                 # 1% missing ratings
            frames.append(pd.DataFrame({
                "suite": "bench", "task": None, "rubric_id": "bench_rubric", "rubric_version": 1,
                "criterion": f"criterion_{c + 1}", "min_score": 1, "max_score": 5,
                "response_id": np.char.add("r", np.arange(units).astype(str)),
                "item_id": np.char.add("i", (np.arange(units) // systems).astype(str)),
                "system_id": np.char.add("system_", system_of.astype(str)),
                "is_reference_system": system_of == 0, "response_chars": chars,
                "rater_id": f"human_position_{r + 1}" if kind == "human" else "judge_llm",
                "rater_kind": kind, "score_value": np.where(missing, np.nan, score),
                "n_scores": np.where(missing, 0, 1), "n_excluded": np.where(missing, 1, 0),
                "excluded_reason": np.where(missing, "missing", None),
            }))
    return pd.concat(frames, ignore_index=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--units", type=int, default=200_000)
    ap.add_argument("--raters", type=int, default=3)
    ap.add_argument("--criteria", type=int, default=6)
    ap.add_argument("--systems", type=int, default=20)
    args = ap.parse_args()
    t0 = time.perf_counter()
    df = synthetic(args.units, args.raters, args.criteria, args.systems)
    print(f"synthetic long table: {len(df):,} rows ({args.units:,} units x {args.raters} raters + 1 judge x "
          f"{args.criteria} criteria) in {time.perf_counter() - t0:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        con = duckdb.connect(str(Path(tmp) / "bench.duckdb"))
        con.register("src", df)
        con.execute("create table int_reliability_scores as select * from src")
        con.unregister("src")
        del df
        t = time.perf_counter()
        scores = reliability.frame_from_relation(con.sql("select * from int_reliability_scores"))
        timings = {"read into pandas (frame_from_relation)": time.perf_counter() - t}
        directions = pd.DataFrame(columns=["suite", "rubric_id", "criterion", "higher_is_better"])
        # the judge-human marts read int_reliability_cells (the rows counted by equal values in DuckDB)
        t = time.perf_counter()
        reliability.score_cells(con.table("int_reliability_scores")).create("int_reliability_cells")
        timings["int_reliability_cells (score_cells, in DuckDB)"] = time.perf_counter() - t
        cells = con.table("int_reliability_cells")
        for name, fn in [("fct_interrater_reliability", reliability.reliability_table),
                         ("fct_judge_human_agreement", lambda s: reliability.judge_human_table(cells)),
                         ("fct_judge_diagnostics", lambda s: reliability.judge_diagnostics_table(cells)),
                         ("fct_system_rankings", lambda s: reliability.system_rankings_table(cells, directions)),
                         ("fct_coder_set_alpha", lambda s: reliability.coder_set_alpha_table(s, directions))]:
            t = time.perf_counter()
            out = fn(scores)
            con.register("out", out)
            con.execute(f"create table {name} as select * from out")
            con.unregister("out")
            timings[f"{name} ({len(out)} rows)"] = time.perf_counter() - t
        con.close()
    for k, v in timings.items():
        print(f"  {k:<48} {v:7.1f} s")
    print(f"  {'total (marts incl. read)':<48} {sum(timings.values()):7.1f} s")


if __name__ == "__main__":
    main()
