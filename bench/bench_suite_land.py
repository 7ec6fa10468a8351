"""Benchmark: `evalhouse suite land` (check + landing of every suite) on the bundled suites plus a generated one.

Usage: .venv/bin/python bench/bench_suite_land.py [--replies 100000] [--keep DIR] [--reference-venv /work/main/.venv]

It copies the project to a temporary folder, writes the Larkfield-shaped suite folder `suites/synth/` of
bench_larkfield.py (N replies x 4 criteria x 2 raters, Parquet) and times `evalhouse suite land` (wall seconds and
peak RSS by GNU time, with the load). With --reference-venv (another checkout's venv, e.g. main's) the same project
is landed by that code too and the two landings compared table by table in DuckDB: schema (names, types), row
counts, and `except all` both ways; it exits 1 when they differ.
"""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_larkfield import PROJECT, generate, load, timed  # noqa: E402


def land_with(venv: Path, proj: Path, landing: Path) -> None:
    landing.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, DBT_PROFILES_DIR=str(proj), EVALHOUSE_PROJECT_DIR=str(proj),
               EVALHOUSE_LANDING_DIR=str(landing))
    wall, mib, res = timed([str(venv / "bin" / "evalhouse"), "suite", "land"], proj, env)
    print(f"suite land ({venv}): {wall:.1f} s, peak {mib:.0f} MiB, {load()}, exit {res.returncode}")
    if res.returncode != 0:
        print(res.stdout[-3000:], res.stderr[-3000:])
        sys.exit(1)


def same_landing(a: Path, b: Path) -> bool:
    import duckdb
    import pyarrow.parquet as pq

    con = duckdb.connect()
    ok = True
    for f in sorted(a.glob("*.parquet")):
        g = b / f.name
        sa, sb = pq.read_schema(f), pq.read_schema(g)
        n_a, n_b = (con.execute(f"select count(*) from '{p}'").fetchone()[0] for p in (f, g))
        only_a, only_b = (con.execute(f"select count(*) from (select * from '{x}' except all select * from '{y}')")
                          .fetchone()[0] for x, y in ((f, g), (g, f)))
        same = sa.names == sb.names and sa.types == sb.types and n_a == n_b and not only_a and not only_b
        ok &= same
        print(f"  {f.name}: rows {n_a} / {n_b}, only in reference {only_a}, only in this {only_b}"
              f"{'' if same else '  DIFFERENT'}")
    return ok


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--replies", type=int, default=100_000)
    ap.add_argument("--keep", type=Path, default=None, help="keep the temporary project here")
    ap.add_argument("--reference-venv", type=Path, default=None, help="also land with this venv and compare")
    args = ap.parse_args()
    tmp = Path(args.keep or tempfile.mkdtemp(prefix="evalhouse-bench-land-"))
    proj = tmp / "project"
    if proj.exists():
        shutil.rmtree(proj)
    shutil.copytree(PROJECT, proj, ignore=shutil.ignore_patterns(
        ".venv", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "bench"))
    generate(proj / "suites" / "synth", args.replies)
    print(f"{args.replies} replies x 4 criteria x 2 raters generated in {proj / 'suites' / 'synth'}")
    land_with(Path(sys.executable).parent.parent, proj, tmp / "landing")
    ok = True
    if args.reference_venv:
        land_with(args.reference_venv, proj, tmp / "landing_reference")
        ok = same_landing(tmp / "landing_reference", tmp / "landing")
        print("landings identical" if ok else "landings DIFFER")
    if not args.keep:
        shutil.rmtree(tmp)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
