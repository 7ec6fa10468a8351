"""The grain test's query (macros/unique_combination.sql) as dbt compiles it for DuckDB, run on a small table whose
expected failures are written out by hand: duplicated keys, NULLs that compare equal, a where clause."""
from __future__ import annotations

import duckdb
import pytest
from conftest import compile_inline

ROWS = [(1, "x"), (1, "x"), (1, "x"), (None, "y"), (None, "y"), (None, None), (None, None), (2, "x"), (1, "y"),
        (2, None)]


def _compiled(columns: list[str], where: str = "") -> str:
    res = compile_inline(f"{{{{ unique_combination_sql('keys', {columns!r}, {where!r}) }}}}")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res.stdout


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    con.execute("create table keys (a integer, b varchar)")
    con.executemany("insert into keys values (?, ?)", ROWS)
    return con


def _failures(con, sql: str) -> list[tuple]:
    return sorted(con.execute(sql).fetchall(), key=repr)


def test_several_columns_hash_first_and_find_every_duplicate(con):
    sql = _compiled(["a", "b"])
    assert "hash(a, b)" in sql
    assert _failures(con, sql) == sorted([(1, "x", 3), (None, "y", 2), (None, None, 2)], key=repr)


def test_a_where_clause_restricts_the_rows_checked(con):
    assert _failures(con, _compiled(["a", "b"], "where a = 1")) == [(1, "x", 3)]


def test_one_column_is_grouped_as_it_is(con):
    sql = _compiled(["a"])
    assert "hash(" not in sql
    assert _failures(con, sql) == sorted([(1, 4), (None, 4), (2, 2)], key=repr)


def test_a_view_of_a_grain_tested_table_is_checked_by_its_row_count():
    """unique_combination with view_of: the view's rows are counted against the table's (both counts on failure),
    and only when the table has a grain test on the same columns."""
    res = compile_inline("{{ same_rows_as_grain_tested(ref('fct_ratings'), ['rating_id'], ref('int_ratings')) }}")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    con = duckdb.connect()
    con.execute("attach ':memory:' as evalhouse")
    con.execute("create table evalhouse.main.int_ratings as select * from range(5) t(rating_id)")
    con.execute("create view evalhouse.main.fct_ratings as select * from evalhouse.main.int_ratings")
    assert con.execute(res.stdout).fetchall() == []
    # a view that repeats rows (a join) or drops some (a filter) fails with both counts
    con.execute("create or replace view evalhouse.main.fct_ratings as select i.* from evalhouse.main.int_ratings i, "
                "range(2)")
    assert con.execute(res.stdout).fetchall() == [(10, 5)]
    con.execute("create or replace view evalhouse.main.fct_ratings as select * from evalhouse.main.int_ratings "
                "where rating_id > 0")
    assert con.execute(res.stdout).fetchall() == [(4, 5)]
    # int_responses has no grain test on rating_id: compilation stops and says so
    bad = compile_inline("{{ same_rows_as_grain_tested(ref('fct_ratings'), ['rating_id'], ref('int_responses')) }}")
    assert bad.returncode != 0
    assert "int_responses has no grain test on rating_id" in bad.stdout + bad.stderr
