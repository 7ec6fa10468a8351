"""The landed copies (macros/landed_copy.sql): int_responses and int_gold are kept while the landed file, its staging
view and the model are the same, and copied again whole when any of them changes; the rows equal a full copy.

A row added by hand to a kept copy shows whether a run copied again (it is gone) or kept the table (it is still
there). In a built copy of the project, with plain dbt runs of the two models and their staging views.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from conftest import copy_project

from evalhouse.cli.suites import _contract_columns, _stale_caches

BIN = Path(sys.executable).parent
MODELS = ["int_responses", "int_gold"]
SELECT = ["--select", "stg_suites__responses", "stg_suites__gold", *MODELS]
MARK = "hand-added row"


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    dst = copy_project(tmp_path_factory.mktemp("landed") / "evalhouse", built=True)
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    env.pop("EVALHOUSE_DB", None)
    env.pop("EVALHOUSE_PUBLISHED_DB", None)

    def dbt(*args: str) -> str:
        res = subprocess.run([str(BIN / "dbt"), "run", "--no-use-colors", *SELECT, *args], cwd=dst, env=env,
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]
        return res.stdout

    def land() -> None:
        res = subprocess.run([str(BIN / "evalhouse"), "suite", "land"], cwd=dst, env=env, capture_output=True,
                             text=True)
        assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]

    dbt()  # as the copy's build left them, then once incrementally: each holds its fingerprint
    return dst, dbt, land


def _con(dst: Path, read_only: bool = True):
    return duckdb.connect(str(dst / "warehouse" / "build" / "evalhouse.duckdb"), read_only=read_only)


def _add_marks(dst: Path) -> None:
    with _con(dst, read_only=False) as con:
        con.execute(f"insert into int_responses (suite, response_id) values ('larkfield', '{MARK}')")
        con.execute(f"insert into int_gold (suite, item_id, gold_kind, gold_key) values ('larkfield', '{MARK}', "
                    "'label', 'x')")


def _marks(dst: Path) -> dict[str, int]:
    with _con(dst) as con:
        return {"int_responses": con.execute(
                    f"select count(*) from int_responses where response_id = '{MARK}'").fetchone()[0],
                "int_gold": con.execute(f"select count(*) from int_gold where item_id = '{MARK}'").fetchone()[0]}


def _equal_to_a_full_copy(dst: Path) -> None:
    # the staging views read the landing by a path relative to the project folder
    with contextlib.chdir(dst), _con(dst) as con:
        for model, view in (("int_responses", "stg_suites__responses"), ("int_gold", "stg_suites__gold")):
            cols = ", ".join(_contract_columns(model))
            for a, b in ((model, view), (view, model)):
                extra = con.execute(f"select count(*) from (select {cols} from {a} except all "
                                    f"select {cols} from {b})").fetchone()[0]
                assert extra == 0, f"{extra} rows of {a} are not in {b}"


def test_kept_while_nothing_changed(project):
    dst, dbt, _ = project
    _add_marks(dst)
    out = dbt()
    assert _marks(dst) == {"int_responses": 1, "int_gold": 1}, out[-2000:]
    with _con(dst) as con:
        comments = dict(con.execute("select table_name, comment from duckdb_tables() "
                                    "where table_name in ('int_responses', 'int_gold')").fetchall())
    assert all(comments[m] and comments[m].count("|") == 2 for m in MODELS), comments


def test_a_changed_landed_file_is_copied_again(project):
    dst, dbt, land = project
    _add_marks(dst)
    responses = dst / "suites" / "larkfield" / "responses.csv"
    text = responses.read_text(encoding="utf-8")
    assert text.count("unopened garden hose for a full refund") == 1
    responses.write_text(text.replace("unopened garden hose for", "unopened garden hose (edited) for"),
                         encoding="utf-8")
    land()
    dbt()
    # only the responses' file changed: int_gold is kept with its hand-added row, int_responses copied again
    assert _marks(dst) == {"int_responses": 0, "int_gold": 2}
    with _con(dst) as con:
        edited = "select count(*) from int_responses where response_text like '%garden hose (edited)%'"
        assert con.execute(edited).fetchone()[0] == 1
    with _con(dst, read_only=False) as con:
        con.execute(f"delete from int_gold where item_id = '{MARK}'")
    _equal_to_a_full_copy(dst)


def test_changed_model_or_macro_code_and_full_refresh_copy_again(project):
    dst, dbt, _ = project
    _add_marks(dst)
    model = dst / "models" / "intermediate" / "int_gold.sql"
    model.write_text(model.read_text(encoding="utf-8") + "-- a new comment line\n", encoding="utf-8")
    dbt()
    assert _marks(dst) == {"int_responses": 1, "int_gold": 0}
    # a macro the models call (union_suites) is part of their compiled SQL: both copied again
    macro = dst / "macros" / "union_suites.sql"
    code = macro.read_text(encoding="utf-8")
    assert code.count("from {{ ref('stg_suites__' ~ model_suffix) }}") == 1
    macro.write_text(code.replace("from {{ ref('stg_suites__' ~ model_suffix) }}",
                                  "from {{ ref('stg_suites__' ~ model_suffix) }} -- edited"), encoding="utf-8")
    _add_marks(dst)
    dbt()
    assert _marks(dst) == {"int_responses": 0, "int_gold": 0}
    _add_marks(dst)
    dbt("--full-refresh")
    assert _marks(dst) == {"int_responses": 0, "int_gold": 0}
    _equal_to_a_full_copy(dst)
    # the fingerprint a first (or full-refresh) run stores is the one an incremental run computes: kept
    _add_marks(dst)
    dbt()
    assert _marks(dst) == {"int_responses": 1, "int_gold": 1}


def test_a_copy_with_other_columns_is_found_stale(project):
    """_stale_caches lists it, so `evalhouse build` drops it before dbt runs (_drop_stale_caches)."""
    dst, _, _ = project
    db = dst / "warehouse" / "build" / "evalhouse.duckdb"
    assert [t for t, _, _ in _stale_caches(db) if t in MODELS] == []
    with _con(dst, read_only=False) as con:
        con.execute("alter table int_gold add column an_old_column integer")
    stale = [(t, why) for t, _, why in _stale_caches(db) if t in MODELS]
    assert stale == [("int_gold", "int_gold was made by an older evalhouse (other columns)")]
    with _con(dst, read_only=False) as con:
        con.execute("alter table int_gold drop column an_old_column")
