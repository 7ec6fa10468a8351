"""Time (or profile) dbt Python models on an already built warehouse, without dbt: each model's ``model(dbt,
session)`` runs against a read-only copy of the warehouse, ``dbt.ref(name)`` being the built table.

Usage: .venv/bin/python bench/time_python_models.py [--db warehouse/build/evalhouse.duckdb] [--repeat 3]
       [--profile] [--src PROJECT_DIR] MODEL [MODEL ...]

Prints the best and median wall seconds of the model function (the relation reads and the Python work; not dbt's
start-up nor the write of the result) and the load average. ``--profile`` runs cProfile once and prints the top
entries by cumulative time. Not a timed test.
"""
from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]


class _Dbt:
    def __init__(self, con: duckdb.DuckDBPyConnection):
        self._con = con

    def config(self, **_kwargs) -> None:
        return None

    def ref(self, name: str):
        return self._con.table(name)


def _model_fn(name: str, src: Path):
    paths = list((src / "models").rglob(f"{name}.py"))
    if len(paths) != 1:
        raise SystemExit(f"{name}: {len(paths)} model files found")
    namespace: dict = {}
    exec(compile(paths[0].read_text(), str(paths[0]), "exec"), namespace)
    return namespace["model"]


def _materialise(out) -> int:
    """Touch the whole result (as dbt does when it writes it)."""
    if hasattr(out, "num_rows"):
        return out.num_rows
    return len(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("models", nargs="+")
    ap.add_argument("--db", default=str(ROOT / "warehouse" / "build" / "evalhouse.duckdb"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--profile", action="store_true")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--src", default=str(ROOT), help="project folder whose models/ and python/ to run (e.g. an "
                    "export of main, to time before and after back to back)")
    args = ap.parse_args()
    src = Path(args.src).resolve()
    sys.path.insert(0, str(src / "python"))
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "warehouse.duckdb"
        shutil.copyfile(args.db, copy)  # never hold a lock on the build file
        con = duckdb.connect(str(copy), read_only=True)
        dbt = _Dbt(con)
        for name in args.models:
            fn = _model_fn(name, src)
            if args.profile:
                prof = cProfile.Profile()
                prof.enable()
                _materialise(fn(dbt, con))
                prof.disable()
                print(f"== {name}")
                pstats.Stats(prof).sort_stats("cumulative").print_stats(args.top)
                continue
            times = []
            for _ in range(args.repeat):
                t = time.perf_counter()
                rows = _materialise(fn(dbt, con))
                times.append(time.perf_counter() - t)
            print(f"{name:<36} rows {rows:>7}  best {min(times):6.2f} s  median {statistics.median(times):6.2f} s"
                  f"  (load {os.getloadavg()[0]:.2f})", flush=True)


if __name__ == "__main__":
    main()
