"""`make spark-test`: the portable core built on local Spark, every shared mart compared with the DuckDB build.

Usage: .venv/bin/python bench/compare_spark.py [--build] [--duckdb warehouse/build/evalhouse.duckdb]
       [--marts PATTERN ...]

--build runs `dbt build --target spark` first (the models not tagged duckdb_only, their generic tests and the seeds;
warehouse and Derby metastore under warehouse/build/spark, see profiles.yml) and reports its time. Then every mart
(fct_*, dim_*) present in both builds is read whole from each engine and compared row by row over the DuckDB
columns: rows sorted on every column, DECIMAL exact (and a DuckDB DECIMAL column must be a decimal on Spark),
floats within 1e-9 (absolute or relative), everything else equal, NULL = NULL. A column missing on Spark fails. The
bounds of fct_model_run_score_intervals are compared for NULL only (NULL_ONLY: a different PRNG on each engine).
dbt's node lines are printed as they come (the JVM's stderr goes to logs-spark/spark-stderr.log); the run ends with
a summary table (mart, rows on DuckDB, rows on Spark, OK / FAIL), the first difference of each failing mart and the
marts that exist on DuckDB only, and exits 1 when any mart fails (or the Spark build does). Every JVM started here
(dbt's, in its own process group, and the comparison's) has exited when it returns. Needs a DuckDB build (make build;
`make spark-test` runs it when there is none and this script warns when project files are newer), Java 17+ and
make spark-setup.
"""
from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import os
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path

import duckdb

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare_builds import same as _same  # noqa: E402 - bench/ is not a package
from compare_builds import sort_key  # noqa: E402

PROJECT = Path(__file__).resolve().parents[1]
TOL = 1e-9
# pyspark 4.3 warns about pandas 3 on import; the comparison does not use pandas
warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
SCHEMA = "evalhouse"


def spark_dir() -> Path:
    return Path(os.environ.get("EVALHOUSE_SPARK_DIR", PROJECT / "warehouse" / "build" / "spark"))


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def _wait_group(pgid: int, what: str, timeout: float = 60.0) -> None:
    """Wait until every process of a process group we started has exited (the JVM dbt-spark launched exits on its
    own once dbt has gone); SIGTERM what is left after `timeout` seconds, so no JVM stays behind."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return
        if time.monotonic() > deadline:
            print(f"spark-test: {what}: processes left in group {pgid} after {timeout:.0f} s, terminating them")
            os.killpg(pgid, signal.SIGTERM)
            time.sleep(5)
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            return
        time.sleep(0.5)


def run_spark_build() -> float:
    env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT),
               SPARK_LOCAL_IP=os.environ.get("SPARK_LOCAL_IP", "127.0.0.1"))
    dbt = Path(sys.executable).with_name("dbt")
    cmd = [str(dbt), "--no-use-colors", "build", "--target", "spark", "--target-path", "target-spark",
           "--log-path", "logs-spark", "--exclude", "test_type:singular", "test_type:unit"]
    print("+", " ".join(cmd[1:]), f"(load {_load()})", flush=True)
    (PROJECT / "logs-spark").mkdir(exist_ok=True)
    stderr_path = PROJECT / "logs-spark" / "spark-stderr.log"
    start = time.monotonic()
    with open(stderr_path, "w") as stderr:
        # dbt's lines as they come (one per node); the JVM's warnings go to logs-spark/spark-stderr.log
        proc = subprocess.Popen(cmd, cwd=PROJECT, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True,
                                start_new_session=True)
        assert proc.stdout is not None
        for line in proc.stdout:
            print(line.rstrip(), flush=True)
        returncode = proc.wait()
    seconds = time.monotonic() - start
    _wait_group(proc.pid, "dbt build --target spark")
    if returncode != 0:
        print(stderr_path.read_text()[-3000:])
        raise SystemExit(f"spark-test: FAIL: dbt build --target spark failed (exit {returncode}); "
                         f"JVM output in {stderr_path.relative_to(PROJECT)}")
    print(f"spark build: {seconds:.1f} s (load {_load()})", flush=True)
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


def same(a, b) -> bool:
    """compare_builds.same with the Spark comparison's tolerance and time zones normalised."""
    return _same(a, b, TOL, _norm)


# Marts whose Spark form is a different computation of some columns: those columns are compared for NULL only.
# fct_model_run_score_intervals: on DuckDB the Python model draws its resamples with numpy's PCG64, on Spark the
# portable SQL form (models/marts/spark/) with the integer PRNG of macro percentile_bootstrap: the same bootstrap,
# other resamples, so the bounds differ within Monte-Carlo error (python/tests/test_portable_stats.py checks both on
# DuckDB). Its score, counts, reasons and flags are deterministic and compared as usual.
NULL_ONLY = {
    "fct_model_run_score_intervals": (
        ("score_ci_low", "score_ci_high"),
        "bounds NULL-checked only: numpy's PCG64 resamples on DuckDB, the integer PRNG of percentile_bootstrap on "
        "Spark (Monte-Carlo differences; python/tests/test_portable_stats.py compares both)"),
}


def compare_table(con, spark, table: str) -> tuple[int, int, str | None]:
    """(DuckDB rows, Spark rows, None or the first difference); NULL_ONLY columns compared as `is null`."""
    null_only = NULL_ONLY.get(table, ((), ""))[0]
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
    if null_only:
        def masked(row):
            return tuple((v is None) if c in null_only else v for c, v in zip(columns, row))
        duck_rows, spark_rows = [masked(r) for r in duck_rows], [masked(r) for r in spark_rows]
    if len(duck_rows) != len(spark_rows):
        return len(duck_rows), len(spark_rows), "row counts differ"
    duck_sorted = sorted(duck_rows, key=sort_key)
    spark_sorted = sorted(spark_rows, key=sort_key)
    for i, (a, b) in enumerate(zip(duck_sorted, spark_sorted)):
        for c, x, y in zip(columns, a, b):
            if not same(x, y):
                return len(duck_rows), len(spark_rows), f"row {i}: {c} DuckDB {x!r} Spark {y!r}"
    return len(duck_rows), len(spark_rows), None


def stale_inputs(db: Path) -> list[str]:
    """Project files (models, macros, seeds, bundled data) newer than the DuckDB build: it may not be current."""
    built = db.stat().st_mtime
    newer = []
    for folder in ("models", "macros", "seeds", "suites", "data"):
        for f in (PROJECT / folder).rglob("*"):
            if f.is_file() and f.stat().st_mtime > built + 1:
                newer.append(str(f.relative_to(PROJECT)))
    return sorted(newer)


def stop_spark(spark) -> None:
    """Stop the session and wait for its JVM to exit (no Java process left behind)."""
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    spark.stop()
    proc = getattr(gateway, "proc", None)
    if gateway is not None:
        gateway.shutdown()
    if proc is not None:
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait(timeout=30)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", action="store_true", help="run dbt build --target spark first")
    parser.add_argument("--duckdb", type=Path, default=PROJECT / "warehouse" / "build" / "evalhouse.duckdb")
    parser.add_argument("--marts", nargs="+", metavar="PATTERN",
                        help="compare only the marts matching these fnmatch patterns (e.g. 'fct_grade__*')")
    args = parser.parse_args(argv)
    landing = Path(os.environ.get("EVALHOUSE_LANDING_DIR", PROJECT / "warehouse" / "build" / "landing"))
    if not args.duckdb.is_file() or not any(landing.glob("*.parquet")):
        raise SystemExit(f"spark-test: FAIL: no DuckDB build ({args.duckdb.relative_to(PROJECT)} and the landing "
                         "files it writes, which Spark reads too): run `make build` first (`make test` does)")
    newer = stale_inputs(args.duckdb)
    if newer:
        print(f"spark-test: WARNING: {len(newer)} project files are newer than the DuckDB build (e.g. "
              f"{', '.join(newer[:3])}); run `make build` if a mart differs", flush=True)
    spark_seconds = run_spark_build() if args.build else None
    start = time.monotonic()
    con = duckdb.connect(str(args.duckdb), read_only=True)
    duck_marts = sorted(r[0] for r in con.execute(
        "select table_name from duckdb_tables() where schema_name = 'main' "
        "and (table_name like 'fct\\_%' escape '\\' or table_name like 'dim\\_%' escape '\\')").fetchall())
    spark = spark_session()
    spark.sparkContext.setLogLevel("ERROR")
    spark_tables = {r.tableName for r in spark.sql(f"show tables in {SCHEMA}").collect()}
    shared = [t for t in duck_marts if t in spark_tables
              and (not args.marts or any(fnmatch.fnmatch(t, pat) for pat in args.marts))]
    results = []
    for table in shared:
        n_duck, n_spark, problem = compare_table(con, spark, table)
        results.append((table, n_duck, n_spark, problem))
        print(f"compared {table}: {'OK' if problem is None else 'FAIL'}", flush=True)
    stop_spark(spark)
    con.close()
    failed = [r for r in results if r[3] is not None]
    only = [t for t in duck_marts if t not in spark_tables]
    print(f"\nspark-test summary (DECIMAL exact, floats to {TOL:g}; comparison {time.monotonic() - start:.1f} s"
          + (f", spark build {spark_seconds:.1f} s" if spark_seconds is not None else "") + ")")
    print(f"{'mart':45} {'rows duckdb':>12} {'rows spark':>12}  result")
    for table, n_duck, n_spark, problem in results:
        print(f"{table:45} {n_duck:>12} {n_spark:>12}  {'OK' if problem is None else 'FAIL'}"
              + (f" ({NULL_ONLY[table][1]})" if table in NULL_ONLY else ""))
    for table, _, _, problem in failed:
        print(f"FAIL {table}: {problem}")
    print(f"\n{len(shared)} marts compared: {len(shared) - len(failed)} OK, {len(failed)} FAIL. "
          f"{len(only)} marts on DuckDB only (duckdb_only models, README 'When one machine is not enough'): "
          f"{', '.join(only)}")
    if not shared:
        print("spark-test: FAIL: no mart on both engines")
    return 1 if failed or not shared else 0


if __name__ == "__main__":
    sys.exit(main())
