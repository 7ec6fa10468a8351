"""`make spark-test`: the portable core built on local Spark, every shared mart compared with the DuckDB build.

Usage: .venv/bin/python bench/compare_spark.py [--build] [--duckdb warehouse/build/evalhouse.duckdb]

--build runs `dbt build --target spark` first (the models not tagged duckdb_only, their generic tests and the seeds;
warehouse and Derby metastore under warehouse/build/spark, see profiles.yml) and reports its time. Then every mart
(fct_*, dim_*) present in both builds is read whole from each engine and compared row by row over the DuckDB
columns: rows sorted on every column, DECIMAL exact (and a DuckDB DECIMAL column must be a decimal on Spark),
floats within 1e-9 (absolute or relative), everything else equal, NULL = NULL. A column missing on Spark fails.
Prints one line per mart (rows on each side, OK or FAIL and the first difference), the marts that exist on
DuckDB only, and exits 1 when any mart fails. Needs a DuckDB build (make build), Java 17+ and make spark-setup.
"""
from __future__ import annotations

import argparse
import datetime as dt
import math
import os
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import duckdb

PROJECT = Path(__file__).resolve().parents[1]
TOL = 1e-9
SCHEMA = "evalhouse"


def spark_dir() -> Path:
    return Path(os.environ.get("EVALHOUSE_SPARK_DIR", PROJECT / "warehouse" / "build" / "spark"))


def run_spark_build() -> float:
    env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT),
               SPARK_LOCAL_IP=os.environ.get("SPARK_LOCAL_IP", "127.0.0.1"))
    dbt = Path(sys.executable).with_name("dbt")
    cmd = [str(dbt), "build", "--target", "spark", "--target-path", "target-spark", "--log-path", "logs-spark",
           "--exclude", "test_type:singular", "test_type:unit"]
    print("+", " ".join(cmd[1:]), flush=True)
    start = time.monotonic()
    done = subprocess.run(cmd, cwd=PROJECT, env=env, capture_output=True, text=True)
    seconds = time.monotonic() - start
    summary = [line for line in done.stdout.splitlines() if "Done. PASS" in line or "ERROR" in line or "FAIL" in line]
    print("\n".join(summary[-20:]))
    if done.returncode != 0:
        print(done.stdout[-4000:])
        raise SystemExit(f"spark-test: dbt build --target spark failed (exit {done.returncode})")
    print(f"spark build: {seconds:.1f} s", flush=True)
    return seconds


def spark_session():
    from pyspark.sql import SparkSession

    base = spark_dir()
    return (
        SparkSession.builder.master("local[2]")
        .appName("evalhouse-compare")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.warehouse.dir", str(base / "warehouse"))
        .config("spark.driver.extraJavaOptions", f"-Dderby.system.home={base}")
        .config("spark.hadoop.javax.jdo.option.ConnectionURL",
                f"jdbc:derby:;databaseName={base}/metastore_db;create=true")
        .enableHiveSupport()
        .getOrCreate()
    )


def _norm(v):
    if isinstance(v, dt.datetime) and v.tzinfo is not None:
        return v.astimezone(dt.UTC).replace(tzinfo=None)
    return v


def _sort_key(row: tuple) -> tuple:
    out = []
    for v in row:
        if v is None:
            out.append((0, ""))
        elif isinstance(v, float):
            out.append((1, round(v, 9) if math.isfinite(v) else float("inf")))
        elif isinstance(v, (bool, int, Decimal)):
            out.append((1, float(v)))
        else:
            out.append((2, str(v)))
    return tuple(out)


def same(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= TOL or abs(a - b) <= TOL * max(abs(a), abs(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return _norm(a) == _norm(b)


def compare_table(con, spark, table: str) -> tuple[int, int, str | None]:
    """(DuckDB rows, Spark rows, None or the first difference)."""
    rel = con.sql(f"select * from main.{table}")
    columns = rel.columns
    duck_types = dict(zip(columns, [str(t) for t in rel.types]))
    sdf = spark.table(f"{SCHEMA}.{table}")
    spark_types = {f.name: f.dataType.simpleString() for f in sdf.schema.fields}
    missing = [c for c in columns if c not in spark_types]
    duck_rows = rel.fetchall()
    if missing:
        return len(duck_rows), sdf.count(), f"columns missing on Spark: {missing}"
    for c in columns:
        if duck_types[c].startswith("DECIMAL") and not spark_types[c].startswith("decimal"):
            return len(duck_rows), sdf.count(), f"{c}: DuckDB {duck_types[c]} but Spark {spark_types[c]}"
    spark_rows = [tuple(r[c] for c in columns) for r in sdf.select(*[f"`{c}`" for c in columns]).collect()]
    if len(duck_rows) != len(spark_rows):
        return len(duck_rows), len(spark_rows), "row counts differ"
    duck_sorted = sorted(duck_rows, key=_sort_key)
    spark_sorted = sorted(spark_rows, key=_sort_key)
    for i, (a, b) in enumerate(zip(duck_sorted, spark_sorted)):
        for c, x, y in zip(columns, a, b):
            if not same(x, y):
                return len(duck_rows), len(spark_rows), f"row {i}: {c} DuckDB {x!r} Spark {y!r}"
    return len(duck_rows), len(spark_rows), None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="run dbt build --target spark first")
    parser.add_argument("--duckdb", type=Path, default=PROJECT / "warehouse" / "build" / "evalhouse.duckdb")
    args = parser.parse_args(argv)
    if not args.duckdb.is_file():
        raise SystemExit(f"spark-test: {args.duckdb}: no DuckDB build; run `make build` first")
    if args.build:
        run_spark_build()
    con = duckdb.connect(str(args.duckdb), read_only=True)
    duck_marts = sorted(r[0] for r in con.execute(
        "select table_name from duckdb_tables() where schema_name = 'main' "
        "and (table_name like 'fct\\_%' escape '\\' or table_name like 'dim\\_%' escape '\\')").fetchall())
    spark = spark_session()
    spark_tables = {r.tableName for r in spark.sql(f"show tables in {SCHEMA}").collect()}
    shared = [t for t in duck_marts if t in spark_tables]
    failed = 0
    print(f"{'mart':45} {'duckdb':>8} {'spark':>8}  result")
    for table in shared:
        n_duck, n_spark, problem = compare_table(con, spark, table)
        failed += problem is not None
        print(f"{table:45} {n_duck:>8} {n_spark:>8}  {'OK' if problem is None else 'FAIL: ' + problem}", flush=True)
    only = [t for t in duck_marts if t not in spark_tables]
    print(f"\n{len(shared)} marts compared, {failed} failing; {len(only)} marts on DuckDB only (duckdb_only models, "
          f"README 'When one machine is not enough'): {', '.join(only)}")
    spark.stop()
    return 1 if failed or not shared else 0


if __name__ == "__main__":
    sys.exit(main())
