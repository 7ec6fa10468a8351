"""The grain test's query (macros/unique_combination.sql) as dbt compiles it for DuckDB, run on a small table whose
expected failures are written out by hand: duplicated keys, NULLs that compare equal, a where clause, and the
columns that must not be NULL (not_null), checked in the same query."""
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


def _compiled_with_not_null(columns: list[str], not_null: list[str], where: str = "") -> str:
    res = compile_inline(f"{{{{ grain_test_sql('keys', {columns!r}, {not_null!r}, {where!r}) }}}}")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res.stdout


def test_not_null_columns_fail_with_the_key_and_what_is_null(con):
    """One row per key and set of NULL columns, with its row count; duplicates say 'duplicate key'."""
    got = _failures(con, _compiled_with_not_null(["a", "b"], ["a", "b"]))
    assert got == sorted([
        (1, "x", 3, "duplicate key"), (None, "y", 2, "duplicate key"), (None, None, 2, "duplicate key"),
        (None, "y", 2, "NULL in a"), (None, None, 2, "NULL in a, b"), (2, None, 1, "NULL in b"),
    ], key=repr)
    # only b must not be NULL: the rows with a NULL a are not reported for it
    got = _failures(con, _compiled_with_not_null(["a"], ["b"]))
    assert got == sorted([(1, 4, "duplicate key"), (None, 4, "duplicate key"), (2, 2, "duplicate key"),
                          (None, 2, "NULL in b"), (2, 1, "NULL in b")], key=repr)


def test_the_null_check_reads_every_row_whatever_the_restriction(con):
    """The where clause (an incremental chain run's recomputed rows) restricts the duplicate check only: a row whose
    restricting key is NULL would escape it."""
    got = _failures(con, _compiled_with_not_null(["a", "b"], ["a"], "where a = 1"))
    assert got == sorted([(1, "x", 3, "duplicate key"), (None, "y", 2, "NULL in a"),
                          (None, None, 2, "NULL in a")], key=repr)


def test_no_not_null_columns_is_the_plain_grain_query(con):
    assert _compiled_with_not_null(["a", "b"], []) == _compiled(["a", "b"])


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
    # with not_null, the table's grain test must check those columns too (int_ratings' does: rating_id)
    ok = compile_inline("{{ same_rows_as_grain_tested(ref('fct_ratings'), ['suite', 'source_file', 'source_row'], "
                        "ref('int_ratings'), ['rating_id']) }}")
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-3000:]
    # the same key in another order is the same grain test
    ok = compile_inline("{{ same_rows_as_grain_tested(ref('fct_ratings'), ['source_file', 'suite', 'source_row'], "
                        "ref('int_ratings'), ['rating_id']) }}")
    assert ok.returncode == 0, ok.stdout[-3000:] + ok.stderr[-3000:]
    bad = compile_inline("{{ same_rows_as_grain_tested(ref('fct_ratings'), ['suite', 'source_file', 'source_row'], "
                         "ref('int_ratings'), ['rating_id', 'rater_id']) }}")
    assert bad.returncode != 0
    assert ("the grain test of int_ratings on suite, source_file, source_row does not check rater_id for NULLs: add "
            "them to its not_null, or drop them from this test's not_null") in bad.stdout + bad.stderr


@pytest.mark.parametrize("argument", ["columns", "not_null"])
def test_a_column_name_where_a_list_is_expected_is_refused(argument):
    """`not_null: item_id` (no brackets) would check each character as a column: the test says what to write, when
    dbt parses it."""
    kwargs = {"columns": "['item_id']", "not_null": "['item_id']", argument: "'item_id'"}
    res = compile_inline("{{ test_unique_combination(model=ref('dim_items'), columns=" + kwargs["columns"]
                         + ", not_null=" + kwargs["not_null"] + ") }}")
    assert res.returncode != 0
    assert (f"{argument} must be a list of column names, as in {argument}: [item_id] (got item_id)"
            in res.stdout + res.stderr), res.stdout + res.stderr


def _compiled_with_accepted(columns: list[str], not_null: list[str], accepted: dict, where: str = "") -> str:
    res = compile_inline(f"{{{{ grain_test_sql('keys', {columns!r}, {not_null!r}, {where!r}, {accepted!r}) }}}}")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res.stdout


def test_accepted_values_fail_with_the_key_and_the_value(con):
    """A value outside the list fails with '<column> not accepted: <value>', one row per key and problem; a NULL is
    accepted (as dbt's accepted_values); a row with a NULL and a refused value says both."""
    got = _failures(con, _compiled_with_accepted(["a"], [], {"b": ["x"]}))
    assert got == sorted([(1, 4, "duplicate key"), (None, 4, "duplicate key"), (2, 2, "duplicate key"),
                          (None, 2, "b not accepted: y"), (1, 1, "b not accepted: y")], key=repr)
    got = _failures(con, _compiled_with_accepted(["a", "b"], ["a"], {"b": ["y"]}, "where a = 2"))
    assert got == sorted([(None, "y", 2, "NULL in a"), (None, None, 2, "NULL in a"),
                          (1, "x", 3, "b not accepted: x"), (2, "x", 1, "b not accepted: x")], key=repr)
    got = _failures(con, _compiled_with_accepted(["b"], ["a"], {"b": ["x"]}))
    assert ("y", 2, "NULL in a; b not accepted: y") in got and ("y", 3, "duplicate key") in got, got
    # a quote in a value is a value, and a value list with every value present fails nothing
    assert _failures(con, _compiled_with_accepted(["a", "b"], [], {"b": ["x", "y", "it's"]}, "where false")) == []


@pytest.mark.parametrize("accepted, says", [
    ("['x', 'y']", "accepted_values must map each column to its values, as in accepted_values: {status: [ok, failed]}"),
    ("{}", "accepted_values must map each column to its values, as in accepted_values: {status: [ok, failed]} "
           "(got {})"),
    ("{'b': 'x'}", "accepted_values of b must be a non-empty list of values, as in accepted_values: {b: [a, b]} "
                   "(got x)"),
    ("{'b': []}", "accepted_values of b must be a non-empty list of values, as in accepted_values: {b: [a, b]} "
                  "(got [])"),
])
def test_accepted_values_not_a_mapping_of_lists_is_refused(accepted, says):
    res = compile_inline("{{ test_unique_combination(model=ref('dim_items'), columns=['item_id'], accepted_values="
                         + accepted + ") }}")
    assert res.returncode != 0
    assert says in res.stdout + res.stderr, res.stdout + res.stderr
