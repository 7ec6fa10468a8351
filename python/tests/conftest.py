"""Shared fixtures: the published warehouse, built once per test session when it is missing (for the tests that
use the `warehouse` fixture or a built project copy; a few modules skip without a build instead: `make build`
first)."""
from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import __main__
from evalhouse import paths
from evalhouse.warehouse.published import connect_readonly

PROJECT = Path(__file__).resolve().parents[2]

# `make test` runs pytest in worker processes (pytest-xdist). A worker's __main__ (execnet's) has neither __spec__ nor
# __file__, which pyspark (installed by `make spark-setup`) takes for a doctest run: importing pyspark.sql.connect,
# as Great Expectations does when pyspark is installed, then calls sys.exit(0). Give it a file name.
if getattr(__main__, "__spec__", None) is None and not hasattr(__main__, "__file__"):
    __main__.__file__ = "<pytest-xdist worker>"

# What a copy of the project holds: code, dbt project, bundled data and suites (no venv, git, build output).
PROJECT_FILES = ["dbt_project.yml", "profiles.yml", "pyproject.toml", "models", "macros", "seeds", "tests", "data",
                 "suites", "python", "app", ".streamlit"]


def _build_warehouse() -> None:
    """Build and publish the repo's warehouse unless both files exist. Workers that need it at the same time wait
    for the first one's build (a second `evalhouse build` would stop at once: another build is running)."""
    paths.build_db().parent.mkdir(parents=True, exist_ok=True)
    with open(paths.build_db().parent / "pytest-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if paths.build_db().is_file() and paths.published_db().is_file():
            return
        env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT))
        evalhouse = Path(sys.executable).with_name("evalhouse")
        subprocess.run([str(evalhouse), "build", "--quiet"], cwd=PROJECT, env=env, check=True)


@pytest.fixture(scope="session")
def warehouse():
    """A read-only connection to the published warehouse (`make test` builds it before pytest)."""
    if not paths.published_db().is_file():
        _build_warehouse()
    con = connect_readonly()
    yield con
    con.close()


def copy_project(dst: Path, *, built: bool = False) -> Path:
    """Copy the project to ``dst`` for a test that changes files or builds there (never the repo's own data).

    With ``built``, the repo's built warehouse comes along (build file, suite landing with its fingerprint, and the
    published copy; built first when missing), so a build in the copy selects only what the test changed, and the
    check and landing of unchanged suites are skipped. ``make test`` builds the repo before pytest, so the copy is
    of the current code."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    dst.mkdir(parents=True, exist_ok=True)
    for name in PROJECT_FILES:
        src = PROJECT / name
        if src.is_dir():
            shutil.copytree(src, dst / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, dst / name)
    if built:
        if not (paths.build_db().is_file() and paths.published_db().is_file()):
            _build_warehouse()
        (dst / "warehouse" / "build").mkdir(parents=True)
        shutil.copy2(paths.build_db(), dst / "warehouse" / "build" / "evalhouse.duckdb")
        from evalhouse.suites.land import landing_dir

        shutil.copytree(landing_dir(), dst / "warehouse" / "build" / "landing")
        shutil.copy2(paths.published_db(), dst / "warehouse" / "evalhouse.duckdb")
    return dst


# The portable SQL forms and the portable-statistics analyses, compiled once for DuckDB (var portable_forms_on_duckdb
# enables the Spark forms of Python marts there), for the tests that run their SQL on the bundled data and fixtures.
PORTABLE_NODES = {
    "fct_model_run_score_intervals": "models/marts/spark/fct_model_run_score_intervals.sql",
    "int_grade__consistency_findings": "models/intermediate/grade/int_grade__consistency_findings.sql",
    "int_grade__consistency_clusters": "models/intermediate/grade/int_grade__consistency_clusters.sql",
    "fct_grade__consistency": "models/marts/grade/fct_grade__consistency.sql",
    "portable_stats_kendall_tau_b": "analyses/portable_stats_kendall_tau_b.sql",
    "portable_stats_kendall_tau_b_ungrouped": "analyses/portable_stats_kendall_tau_b_ungrouped.sql",
    "portable_stats_percentile_bootstrap": "analyses/portable_stats_percentile_bootstrap.sql",
    "first_filter_json_flags": "analyses/first_filter_json_flags.sql",  # DuckDB-only macros, same compile
}


def compile_inline(jinja: str) -> subprocess.CompletedProcess:
    """`dbt compile --inline` of a Jinja expression in this project (a macro's SQL as dbt renders it for DuckDB);
    the compiled SQL is the result's stdout."""
    env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT))
    return subprocess.run([str(Path(sys.executable).with_name("dbt")), "--quiet", "compile", "--inline", jinja],
                          cwd=PROJECT, env=env, capture_output=True, text=True)


@pytest.fixture(scope="session")
def portable_sql(tmp_path_factory) -> dict[str, str]:
    """{node name: its SQL compiled for DuckDB}: one `dbt compile` of PORTABLE_NODES (a throw-away DuckDB file, so a
    build of the repo is not touched; named evalhouse.duckdb, as the relations are named by database); the SQL reads "evalhouse"."main".<ref> (the built warehouse's catalog, or an
    in-memory database attached as evalhouse)."""
    tmp = tmp_path_factory.mktemp("portable_sql")
    env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT),
               EVALHOUSE_DB=str(tmp / "evalhouse.duckdb"), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    dbt = Path(sys.executable).with_name("dbt")
    subprocess.run([str(dbt), "compile", "--quiet", "--select", *PORTABLE_NODES, "--vars",
                    "{portable_forms_on_duckdb: true}", "--target-path", str(tmp / "target"),
                    "--log-path", str(tmp / "logs")], cwd=PROJECT, env=env, check=True, capture_output=True)
    compiled = tmp / "target" / "compiled" / "evalhouse"
    return {name: (compiled / path).read_text(encoding="utf-8") for name, path in PORTABLE_NODES.items()}
