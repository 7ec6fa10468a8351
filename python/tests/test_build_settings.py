"""EVALHOUSE_MEMORY_LIMIT: checked by DuckDB before dbt runs, then set for the whole run by the on-run-start hook
apply_memory_limit (macros/maintenance.sql); `evalhouse build` stops on it, and on EVALHOUSE_TEXT_WORKERS, before dbt."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from conftest import copy_project

from evalhouse.warehouse.settings import memory_limit

BIN = Path(sys.executable).parent


@pytest.mark.parametrize(("raw", "expected"), [(None, None), ("", None), ("  ", None), ("3GB", "2.7 GiB"),
                                               (" 2500MiB ", "2.4 GiB"), ("1.5gb", "1.3 GiB")])
def test_memory_limit_as_duckdb_reports_it(monkeypatch, raw, expected):
    if raw is None:
        monkeypatch.delenv("EVALHOUSE_MEMORY_LIMIT", raising=False)
    else:
        monkeypatch.setenv("EVALHOUSE_MEMORY_LIMIT", raw)
    assert memory_limit() == expected


@pytest.mark.parametrize(("raw", "duckdb_says"), [("80%", "Unknown unit for memory: '%'"),
                                                   ("3000000000", "Unknown unit for memory: ''"),
                                                   ("0GB", "too small, DuckDB cannot run a query within it"),
                                                   (" -1GB", "not one starting with '-'"),
                                                   ("-0", "not one starting with '-'"),
                                                   ("3'GB", "Unknown unit for memory")])
def test_memory_limit_rejects_what_duckdb_refuses_naming_the_variable(monkeypatch, raw, duckdb_says):
    monkeypatch.setenv("EVALHOUSE_MEMORY_LIMIT", raw)
    with pytest.raises(ValueError, match="EVALHOUSE_MEMORY_LIMIT=") as exc:
        memory_limit()
    assert duckdb_says in str(exc.value)


@pytest.mark.parametrize(("variable", "raw"), [("EVALHOUSE_MEMORY_LIMIT", "80%"), ("EVALHOUSE_TEXT_WORKERS", "abc")])
def test_build_stops_on_a_bad_setting_before_dbt(monkeypatch, tmp_path, variable, raw):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    monkeypatch.setenv("EVALHOUSE_DB", str(tmp_path / "build" / "evalhouse.duckdb"))
    monkeypatch.setenv(variable, raw)
    res = CliRunner().invoke(app, ["build"])
    assert res.exit_code == 2
    assert f"{variable}={raw!r}" in res.output and "nothing built or published" in res.output
    assert not (tmp_path / "build").exists()  # no lock taken, nothing landed


@pytest.mark.parametrize("variable", ["EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB"])
def test_build_stops_on_a_warehouse_file_not_named_evalhouse_duckdb(monkeypatch, tmp_path, variable):
    """The views name their database "evalhouse": a file of another name would publish views that do not open."""
    from typer.testing import CliRunner

    from evalhouse.cli import app

    monkeypatch.setenv("EVALHOUSE_DB", str(tmp_path / "build" / "evalhouse.duckdb"))
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(tmp_path / "pub" / "evalhouse.duckdb"))
    monkeypatch.setenv(variable, str(tmp_path / "other" / "lark.duckdb"))
    res = CliRunner().invoke(app, ["build"])
    assert res.exit_code == 2
    assert f"{variable}={str(tmp_path / 'other' / 'lark.duckdb')!r}: the file must be named evalhouse.duckdb" \
        in res.output.replace("\n", "")
    assert not (tmp_path / "build").exists() and not (tmp_path / "other").exists()


def test_the_hook_sets_the_limit_for_every_model_of_the_run(tmp_path):
    """A model of the run reads the limit the hook set (two threads: each has its own connection); without the
    variable, DuckDB's default is left alone."""
    dst = copy_project(tmp_path / "evalhouse")
    (dst / "models" / "zz_memory_limit_a.sql").write_text("select current_setting('memory_limit') as memory_limit\n")
    (dst / "models" / "zz_memory_limit_b.sql").write_text("select current_setting('memory_limit') as memory_limit\n")
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst),
               EVALHOUSE_DB=str(dst / "warehouse" / "build" / "evalhouse.duckdb"), EVALHOUSE_MEMORY_LIMIT="1500MB")
    (dst / "warehouse" / "build").mkdir(parents=True)
    select = ["--select", "zz_memory_limit_a", "zz_memory_limit_b", "--threads", "2"]
    res = subprocess.run([str(BIN / "dbt"), "run", *select], cwd=dst, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:]
    assert "DuckDB memory_limit: 1.3 GiB (EVALHOUSE_MEMORY_LIMIT=1500MB)" in res.stdout
    assert res.stdout.count("EVALHOUSE_MEMORY_LIMIT=1500MB") == 1  # logged once, as DuckDB applied it
    with duckdb.connect(env["EVALHOUSE_DB"], read_only=True) as con:
        assert con.execute("select * from zz_memory_limit_a union all select * from zz_memory_limit_b").fetchall() \
            == [("1.3 GiB",), ("1.3 GiB",)]
    del env["EVALHOUSE_MEMORY_LIMIT"]
    res = subprocess.run([str(BIN / "dbt"), "run", *select], cwd=dst, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:]
    assert "DuckDB memory_limit" not in res.stdout
    with duckdb.connect(env["EVALHOUSE_DB"], read_only=True) as con:
        default = duckdb.connect().execute("select current_setting('memory_limit')").fetchone()[0]
        assert con.execute("select distinct memory_limit from zz_memory_limit_a").fetchall() == [(default,)]


def test_relative_paths_reach_dbt_as_the_absolute_paths_the_landing_used(monkeypatch, tmp_path):
    """dbt runs in the project folder: EVALHOUSE_DB and EVALHOUSE_LANDING_DIR given relative to the folder the
    command runs from are passed to dbt resolved against that folder, where the landing wrote (not re-read by dbt
    against the project folder). dbt itself is replaced by a stub that records its environment and fails."""
    from typer.testing import CliRunner

    from evalhouse.cli import app, suites
    from evalhouse.suites import land

    seen = {}

    def fake_dbt(cmd, cwd, env):
        seen.update(cwd=cwd, db=env["EVALHOUSE_DB"], landing=env["EVALHOUSE_LANDING_DIR"])
        return 1

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("EVALHOUSE_DB", "out/build/evalhouse.duckdb")
    monkeypatch.setenv("EVALHOUSE_LANDING_DIR", "out/landing")
    monkeypatch.setattr(land, "landing_is_current", lambda fingerprint: True)  # no landing: only the paths matter
    monkeypatch.setattr(suites, "_run_forwarding_stop", fake_dbt)
    res = CliRunner().invoke(app, ["build", "--no-publish"])
    assert res.exit_code == 1 and "dbt build failed" in res.output
    assert seen["db"] == str(tmp_path / "out" / "build" / "evalhouse.duckdb")
    assert seen["landing"] == str(tmp_path / "out" / "landing")
    assert Path(seen["cwd"]) != tmp_path  # dbt ran elsewhere: the relative values would have pointed there


def test_a_stop_during_the_landing_says_so(monkeypatch, tmp_path):
    """Ctrl-C while the suites are checked and landed (`python -m evalhouse suite land`, a process of its own): a
    message naming the signal, exit 130, dbt never starts."""
    from typer.testing import CliRunner

    from evalhouse.cli import app, suites
    from evalhouse.suites import land

    started = []

    def run(cmd, **kwargs):
        started.append(cmd)
        if cmd != [sys.executable, "-P", "-m", "evalhouse", "suite", "land", "--in-build"]:
            pytest.fail(f"dbt started: {cmd}")
        return 130  # as _run_forwarding_stop returns when a SIGINT stopped the landing

    parses = []

    @contextlib.contextmanager
    def parse_beside(cmd, env):
        parses.append(cmd)
        yield

    monkeypatch.setenv("EVALHOUSE_DB", str(tmp_path / "build" / "evalhouse.duckdb"))
    monkeypatch.setattr(land, "landing_is_current", lambda fingerprint: False)
    monkeypatch.setattr(suites, "_run_forwarding_stop", run)
    monkeypatch.setattr(suites, "_parse_beside", parse_beside)
    res = CliRunner().invoke(app, ["build", "--threads", "1", "--vars", "{x: 1}"])
    assert res.exit_code == 130 and len(started) == 1
    # dbt parsed the project beside the landing, with the arguments that change what it parses
    assert [cmd[1:] for cmd in parses] == [["parse", "--no-use-colors", "--vars", "{x: 1}"]]
    assert "stopped while checking and landing the suites (signal 2: a stop, or the system ending it, e.g. out of " \
           "memory); nothing built or published" in res.output


@pytest.mark.parametrize(("args", "expected"), [
    ([], []),
    (["--full-refresh", "--threads", "1", "-s", "int_items"], []),
    (["--vars", "{a: 1}", "--target=dev", "-x", "--profiles-dir", "p", "--project-dir=q"],
     ["--vars", "{a: 1}", "--target=dev", "--profiles-dir", "p", "--project-dir=q"]),
    (["-t", "ci", "--target-path", "t2"], ["-t", "ci", "--target-path", "t2"]),
])
def test_the_parse_beside_the_landing_gets_the_arguments_that_change_the_parse(args, expected):
    from evalhouse.cli.suites import _parse_args

    assert _parse_args(args) == expected


def test_the_parse_beside_the_landing_is_waited_for_or_stopped(tmp_path):
    """_parse_beside: when the block ends normally, the background command has finished (the build then reads its
    parse); when the block raises (a suite problem, a stop), the command is stopped at once."""
    from evalhouse.cli.suites import _parse_beside

    done = tmp_path / "done"
    cmd = [sys.executable, "-c", f"import time, pathlib; time.sleep(1.5); pathlib.Path({str(done)!r}).touch()"]
    with _parse_beside(cmd, dict(os.environ)):
        pass
    assert done.exists()
    done.unlink()
    start = time.monotonic()
    with pytest.raises(RuntimeError), _parse_beside(cmd, dict(os.environ)):
        raise RuntimeError("a suite problem")
    assert time.monotonic() - start < 1.2
    time.sleep(1.0)
    assert not done.exists()


def test_the_landing_runs_in_a_process_of_its_own(tmp_path):
    """`python -m evalhouse suite land` is the command `evalhouse build` runs (the memory of a large landing is
    returned when it ends): on a suite with a problem it reports it, names the file, and exits 1."""
    suite = tmp_path / "suites" / "broken"
    suite.mkdir(parents=True)
    (suite / "suite.yml").write_text("title: [unclosed\n")
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(tmp_path), EVALHOUSE_LANDING_DIR=str(tmp_path / "landing"))
    (tmp_path / "evalhouse").mkdir()  # a folder of that name where the build starts is not imported (-P)
    (tmp_path / "evalhouse" / "__init__.py").write_text("raise SystemExit('the wrong evalhouse was imported')\n")
    res = subprocess.run([sys.executable, "-P", "-m", "evalhouse", "suite", "land"], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "suites/broken/suite.yml" in res.stderr and "suite check failed; nothing built or published" in res.stderr
    assert not (tmp_path / "landing" / "_fingerprint.txt").exists()


def test_the_landing_names_files_under_the_project_from_any_folder(tmp_path):
    """`suite land` started from the project's parent folder (as `evalhouse build` run from there starts it) lands
    each row's source_file as the path under the project: before, as `proj/suites/...`, and the next build from the
    project kept those names (the fingerprint does not depend on the folder)."""
    import shutil

    import pyarrow.parquet as pq

    project = tmp_path / "proj"
    shutil.copytree(Path(__file__).resolve().parents[2] / "suites" / "example_qa", project / "suites" / "example_qa")
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR="proj", EVALHOUSE_LANDING_DIR="proj/landing")
    res = subprocess.run([sys.executable, "-P", "-m", "evalhouse", "suite", "land"], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
    for table in ("items", "responses", "ratings"):
        names = set(pq.read_table(project / "landing" / f"{table}.parquet").column("source_file").to_pylist())
        assert names == {f"suites/example_qa/{table}.csv"}, (table, names)


def test_suite_land_waits_for_no_build(tmp_path):
    """`evalhouse suite land` takes the build lock: while a build holds it, it lands nothing and says so (a build
    running meanwhile would read a landing half written); `evalhouse build` runs it with --in-build."""
    from evalhouse.warehouse.buildlock import build_lock

    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(tmp_path), EVALHOUSE_LANDING_DIR=str(tmp_path / "landing"),
               EVALHOUSE_DB=str(tmp_path / "build" / "evalhouse.duckdb"))
    (tmp_path / "suites").mkdir()
    with build_lock(tmp_path / "build" / "build.lock"):
        res = subprocess.run([sys.executable, "-P", "-m", "evalhouse", "suite", "land"], cwd=tmp_path, env=env,
                             capture_output=True, text=True)
    assert res.returncode == 1
    assert "error: another build is running (pid " in res.stderr and "; nothing landed" in res.stderr
    assert not (tmp_path / "landing").exists()
    res = subprocess.run([sys.executable, "-P", "-m", "evalhouse", "suite", "land"], cwd=tmp_path, env=env,
                         capture_output=True, text=True)
    assert res.returncode == 0 and "landed 0 suite(s)" in res.stdout, res.stdout + res.stderr
