"""One build at a time (lock), no leftover __dbt_tmp relations, a published file that does not grow over rebuilds,
the pinned DuckDB CLI of the README, and a wheel that declares its dependencies and ships its schema."""
from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import duckdb
import pytest

from evalhouse.warehouse.buildlock import BuildRunning, build_lock
from evalhouse.warehouse.published import STORAGE_VERSION, publish

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def _env(tmp: Path) -> dict:
    env = dict(os.environ, EVALHOUSE_DB=str(tmp / "build" / "evalhouse.duckdb"), EVALHOUSE_PROJECT_DIR=str(ROOT),
               DBT_PROFILES_DIR=str(ROOT), DBT_SEND_ANONYMOUS_USAGE_STATS="false",
               EVALHOUSE_PUBLISHED_DB=str(tmp / "evalhouse.duckdb"))
    return env


def test_a_second_build_says_another_build_is_running(tmp_path):
    with build_lock(tmp_path / "build" / "build.lock"):
        t0 = time.monotonic()
        res = subprocess.run([str(BIN / "evalhouse"), "build"], env=_env(tmp_path), capture_output=True, text=True,
                             timeout=120)
        elapsed = time.monotonic() - t0
    assert res.returncode == 1, res.stdout + res.stderr
    assert res.stderr.startswith(f"error: another build is running (pid {os.getpid()}, started ")
    assert res.stderr.rstrip().endswith("wait for it to finish") and len(res.stderr.splitlines()) == 1
    assert "Traceback" not in res.stderr and not (tmp_path / "build" / "evalhouse.duckdb").exists()
    assert elapsed < 60  # it does not wait for the lock (dbt would take minutes)
    # once the first build has ended the lock is free: publish gets past it (and says there is no build file yet)
    pub = subprocess.run([str(BIN / "evalhouse"), "publish"], env=_env(tmp_path), capture_output=True, text=True)
    assert pub.returncode == 1 and "no built warehouse; run `make build`" in pub.stderr
    assert "another build" not in pub.stderr and "Traceback" not in pub.stderr


def test_the_lock_is_exclusive_and_a_stale_lock_file_is_taken_over(tmp_path):
    lock = tmp_path / "build.lock"
    lock.write_text("pid 999999, started 2020-01-01T00:00:00Z\n")  # left by a killed build: no process holds it
    with build_lock(lock):
        assert lock.read_text().startswith(f"pid {os.getpid()}, started ")
        with pytest.raises(BuildRunning, match=rf"another build is running \(pid {os.getpid()}, started "):
            with build_lock(lock):
                pass
    with build_lock(lock):
        pass


def _make_build_file(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with duckdb.connect(str(path)) as con:
        con.execute("create table keep as select range as k, md5(range::varchar) as v from range(100000)")
        con.execute('create view "evalhouse"."main"."keep_n" as select count(*) as n from "evalhouse"."main"."keep"')
        con.execute("create table int_text_checks__dbt_tmp20260101000000 as select 1 as x")


def _bloat(path: Path) -> None:
    """What a rebuild does to the file: a large table written, a later one after it, then the large one dropped
    (its blocks become free space inside the file)."""
    with duckdb.connect(str(path)) as con:
        con.execute("create table rebuilt as select range as k, md5(range::varchar) || md5((range + 1)::varchar) as v "
                    "from range(1000000)")
        con.execute("checkpoint")
        con.execute("create or replace table later as select range as k from range(1000)")
        con.execute("checkpoint")
        con.execute("drop table rebuilt")
        con.execute("checkpoint")


def test_publish_drops_dbt_tmp_relations_and_the_file_does_not_grow(tmp_path):
    build, published = tmp_path / "build" / "evalhouse.duckdb", tmp_path / "evalhouse.duckdb"
    _make_build_file(build)
    publish(build, published)
    sizes = []
    for _ in range(4):
        _bloat(build)
        bloated = build.stat().st_size
        publish(build, published)
        sizes.append((published.stat().st_size, build.stat().st_size))
        assert sizes[-1][0] * 4 < bloated and sizes[-1][1] * 4 < bloated  # the free space is gone from both
    # no growth over rebuilds: a file is compacted once more than half of it is free (MAX_FREE_SHARE), so it stays
    # under about twice its compact size
    assert max(max(s) for s in sizes) <= min(min(s) for s in sizes) * 2.1, sizes
    with duckdb.connect(str(published), read_only=True) as con:
        assert con.execute("select table_name from information_schema.tables order by 1").fetchall() == [
            ("keep",), ("keep_n",), ("later",)]
        assert con.execute("select n from keep_n").fetchone() == (100000,)
        # the compacted copy is written in the warehouse's storage format, whatever the file it copied had
        assert _storage_version(con) == STORAGE_VERSION + "+"


def _storage_version(con: duckdb.DuckDBPyConnection) -> str:
    return con.execute("select tags['storage_version'] from duckdb_databases() where database_name = "
                       "current_database()").fetchone()[0]


def test_dbt_writes_a_new_warehouse_in_the_storage_format_publish_uses(tmp_path):
    """profiles.yml gives dbt the format published.STORAGE_VERSION names (DuckDB's default, v0.10.2, writes strings
    about 30 % slower): a warehouse file dbt creates has it."""
    env = _env(tmp_path)
    (tmp_path / "build").mkdir()
    res = subprocess.run([str(BIN / "dbt"), "show", "--inline", "select 1 as x", "--no-use-colors",
                          "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:]
    with duckdb.connect(env["EVALHOUSE_DB"], read_only=True) as con:
        assert _storage_version(con) == STORAGE_VERSION + "+"


def test_a_dbt_rebuild_leaves_no_dbt_tmp_relation(warehouse, tmp_path):
    """int_text_checks is an incremental Python model: each incremental run used to leave a __dbt_tmp table."""
    from evalhouse import paths

    db = tmp_path / "build" / "evalhouse.duckdb"
    db.parent.mkdir()
    shutil.copy(paths.published_db(), db)
    env = _env(tmp_path)
    for _ in range(2):
        res = subprocess.run([str(BIN / "dbt"), "run", "--no-use-colors", "--select", "int_text_checks",
                              "--target-path", str(tmp_path / "target"), "--log-path", str(tmp_path / "logs")],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
        assert res.returncode == 0, res.stdout[-3000:]
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select count(*) from information_schema.tables where table_name like '%dbt_tmp%'"
                           ).fetchone() == (0,)
        assert con.execute("select count(*) from int_text_checks").fetchone()[0] > 0


def test_the_readme_duckdb_cli_line_works(warehouse):
    from evalhouse import paths

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert ".venv/bin/duckdb -readonly warehouse/evalhouse.duckdb" in readme
    res = subprocess.run([str(BIN / "duckdb"), "-readonly", str(paths.published_db()), "-csv", "-noheader", "-c",
                          "select count(*) from dim_rubric_levels where suite = 'larkfield'"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert int(res.stdout.strip()) == warehouse.execute(
        "select count(*) from dim_rubric_levels where suite = 'larkfield'").fetchone()[0] > 0
    assert "duckdb-cli==1.5.5" in (ROOT / "requirements.txt").read_text()


def test_the_wheel_declares_its_dependencies_and_ships_the_schema(tmp_path):
    src = tmp_path / "src"  # a copy, so the build leaves nothing in the project
    shutil.copy(ROOT / "pyproject.toml", src.mkdir() or src / "pyproject.toml")
    shutil.copytree(ROOT / "python" / "evalhouse", src / "python" / "evalhouse",
                    ignore=shutil.ignore_patterns("__pycache__"))
    res = subprocess.run([str(BIN / "pip"), "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                          "--wheel-dir", str(tmp_path), str(src)], capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-3000:]
    (wheel,) = tmp_path.glob("evalhouse-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = email.message_from_bytes(zf.read(meta_name))
        schema = zf.read("evalhouse/schemas/grade_results.schema.json")
        assert "evalhouse/judge/prices.csv" in names
    assert schema == (ROOT / "python" / "evalhouse" / "schemas" / "grade_results.schema.json").read_bytes()
    requires = {r.split(";")[0].replace(" ", "") for r in meta.get_all("Requires-Dist")}
    for pin in ("duckdb==1.5.5", "typer==0.29.2", "jsonschema==4.26.0", "pandas==3.1.1", "numpy==2.4.6",
                "scipy==1.17.1", "PyYAML==6.0.4"):
        assert pin in requires, (pin, sorted(requires))
    assert "evalhouse/grade/scorecard.py" in names


def test_package_pins_match_requirements():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    def pins_of(name: str) -> set[str]:
        return {line.strip() for line in (ROOT / name).read_text().splitlines()
                if line.strip() and not line.startswith("#")}

    extras = project["optional-dependencies"]
    pins = project["dependencies"] + [d for name, deps in extras.items() if name != "spark" for d in deps]
    required = pins_of("requirements.txt")
    assert set(pins) <= required, sorted(set(pins) - required)
    # the optional Spark target (make spark-setup) installs requirements-spark.txt, not requirements.txt
    assert set(extras["spark"]) == pins_of("requirements-spark.txt")
