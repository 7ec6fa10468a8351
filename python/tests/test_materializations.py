"""The project's table and view materializations on DuckDB (macros/materializations.sql), run by dbt on a tiny
project of their own: a table, a view and a Python model rebuilt under their own names, a model that reads its own
previous table (as int_rating_changes does), a relation that changes type, a contract, and a failed model that
keeps its old table."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

PROJECT = Path(__file__).resolve().parents[2]
DBT = str(Path(sys.executable).parent / "dbt")

DBT_PROJECT = """name: mat
version: "1.0"
config-version: 2
profile: mat
flags: {send_anonymous_usage_stats: false}
"""
PROFILES = """mat:
  target: dev
  outputs:
    dev: {type: duckdb, path: "%s", threads: 2}
"""
CONTRACT = """models:
  - name: m_contract
    config: {contract: {enforced: true}}
    columns:
      - {name: id, data_type: integer}
      - {name: label, data_type: varchar}
"""


def _write(root: Path, models: dict[str, str]) -> None:
    for name, text in models.items():
        (root / "models" / name).write_text(text)


def _run(root: Path) -> subprocess.CompletedProcess:
    return subprocess.run([DBT, "run", "--no-use-colors", "--project-dir", str(root), "--profiles-dir", str(root)],
                          capture_output=True, text=True, cwd=root, timeout=300)


def _relations(con) -> dict[str, str]:
    return dict(con.execute("select table_name, table_type from information_schema.tables").fetchall())


@pytest.fixture
def project(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "macros").mkdir()
    shutil.copy(PROJECT / "macros" / "materializations.sql", tmp_path / "macros")
    (tmp_path / "dbt_project.yml").write_text(DBT_PROJECT)
    (tmp_path / "profiles.yml").write_text(PROFILES % (tmp_path / "mat.duckdb"))
    (tmp_path / "models" / "_models.yml").write_text(CONTRACT)
    return tmp_path


def test_relations_are_replaced_in_place_and_a_failed_model_keeps_its_table(project):
    counter = ("{{ config(materialized='table') }}\n"
               "{% set old = adapter.get_relation(database=this.database, schema=this.schema, "
               "identifier=this.identifier) %}\n"
               "select {% if old is not none %}(select max(n) from {{ this }}) + {% endif %}1 as n\n")
    _write(project, {
        "m_table.sql": "{{ config(materialized='table', post_hook=['create table hook_in as select 1 as ran', "
                       "{'sql': 'create table hook_after as select count(*) as n from {{ this }}', "
                       "'transaction': false}]) }} select 1 as a",
        "m_view.sql": "{{ config(materialized='view') }} select a + 1 as b from {{ ref('m_table') }}",
        "m_counter.sql": counter,
        "m_contract.sql": "{{ config(materialized='table') }} select 1 as id, 'x' as label",
        "m_py.py": "def model(dbt, session):\n    dbt.config(materialized='table')\n"
                   "    return session.sql('select 10 as p').df()\n",
    })
    res = _run(project)
    assert res.returncode == 0, res.stdout[-3000:]
    db = project / "mat.duckdb"
    with duckdb.connect(str(db), read_only=True) as con:
        assert _relations(con) == {"m_table": "BASE TABLE", "m_view": "VIEW", "m_counter": "BASE TABLE",
                                   "m_contract": "BASE TABLE", "m_py": "BASE TABLE", "hook_in": "BASE TABLE",
                                   "hook_after": "BASE TABLE"}
        # both post-hooks ran: the one inside the model's transaction and the one after its commit, which reads
        # the new table
        assert con.execute("select ran from hook_in").fetchall() == [(1,)]
        assert con.execute("select n from hook_after").fetchall() == [(1,)]
        assert con.execute("select b from m_view").fetchall() == [(2,)]
        assert con.execute("select n from m_counter").fetchall() == [(1,)]

    # second run: new values; the view becomes a table and the table a view; the counter reads its old table
    _write(project, {
        "m_table.sql": "{{ config(materialized='view') }} select 5 as a",
        "m_view.sql": "{{ config(materialized='table') }} select a + 1 as b from {{ ref('m_table') }}",
        "m_contract.sql": "{{ config(materialized='table') }} select 2 as id, 'y' as label",
        "m_py.py": "def model(dbt, session):\n    dbt.config(materialized='table')\n"
                   "    return session.sql('select 20 as p').df()\n",
    })
    res = _run(project)
    assert res.returncode == 0, res.stdout[-3000:]
    with duckdb.connect(str(db), read_only=True) as con:
        assert _relations(con) == {"m_table": "VIEW", "m_view": "BASE TABLE", "m_counter": "BASE TABLE",
                                   "m_contract": "BASE TABLE", "m_py": "BASE TABLE", "hook_in": "BASE TABLE",
                                   "hook_after": "BASE TABLE"}
        assert con.execute("select b from m_view").fetchall() == [(6,)]
        assert con.execute("select n from m_counter").fetchall() == [(2,)]
        assert con.execute("select * from m_contract").fetchall() == [(2, "y")]
        assert con.execute("select p from m_py").fetchall() == [(20,)]

    # third run: failing models (a cast error in SQL, an exception in Python) keep their old tables, and a
    # contract broken by a new column type is refused before anything is dropped
    _write(project, {
        "m_view.sql": "{{ config(materialized='table') }} select cast('not a number' as integer) as b",
        "m_contract.sql": "{{ config(materialized='table') }} select 'three' as id, 'z' as label",
        "m_py.py": "def model(dbt, session):\n    dbt.config(materialized='table')\n    if session is not None:\n"
                   "        raise ValueError('boom')\n    return session.sql('select 30 as p').df()\n",
    })
    res = _run(project)
    assert res.returncode == 1
    assert "Conversion Error" in res.stdout and "boom" in res.stdout and "m_contract" in res.stdout
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("select b from m_view").fetchall() == [(6,)]
        assert con.execute("select * from m_contract").fetchall() == [(2, "y")]
        assert con.execute("select p from m_py").fetchall() == [(20,)]
        assert con.execute("select n from m_counter").fetchall() == [(3,)]
