"""string_agg_ordered (macros/portable.sql) as dbt compiles it for DuckDB: the same text as DuckDB's own
string_agg(expr, sep order by ...) on groups written out by hand: NULL values skipped, NULL sort keys last, a group
of NULLs only, two sort keys, case-sensitive order, and a value built from two columns."""
from __future__ import annotations

import duckdb
import pytest
from conftest import compile_inline

ROWS = [
    ("g1", 2, "b", "x"), ("g1", 1, "z", "y"), ("g1", 1, "a", None), ("g1", 1, "a", "w"),
    ("g2", None, "n", "last"), ("g2", 3, "c", "3"), ("g2", 10, "a", "10"),
    ("g3", 1, "a", None), ("g3", 2, "b", None),
    ("g4", 1, "B", "B"), ("g4", 1, "a", "a"), ("g4", 1, "b", "b"), ("g4", 1, "é", "é"),
    ("g5", 1, "a", ""), ("g5", 2, "a", "v"),
]


def _compiled(expr: str, order: str, sep: str) -> str:
    res = compile_inline(f"{{{{ string_agg_ordered({expr!r}, {order!r}, {sep!r}) }}}}")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    return res.stdout.strip()


@pytest.fixture(scope="module")
def con():
    con = duckdb.connect()
    con.execute("create table t (g varchar, o1 integer, o2 varchar, v varchar)")
    con.executemany("insert into t values (?, ?, ?, ?)", ROWS)
    return con


def _by_group(con, agg: str) -> dict:
    return dict(con.execute(f"select g, {agg} from t group by g").fetchall())


# (expr, order, sep) -> the text per group, by hand. Ties of the sort key are ordered by value (g1 and g4 under o1,
# g5 under o2); string_agg leaves them in any order, so it is compared only where no two non-NULL values tie.
CASES = [
    ("v", "o1", ", ", {"g1": "w, y, x", "g2": "3, 10, last", "g3": None, "g4": "B, a, b, é", "g5": ", v"}),
    ("v", "o1, o2", "; ", {"g1": "w; y; x", "g2": "3; 10; last", "g3": None, "g4": "B; a; b; é", "g5": "; v"}),
    ("v", "o2", ",", {"g1": "w,x,y", "g2": "10,3,last", "g3": None, "g4": "B,a,b,é", "g5": ",v"}),
    ("o2 || '=' || v", "o2", " ", {"g1": "a=w b=x z=y", "g2": "a=10 c=3 n=last", "g3": None,
                                   "g4": "B=B a=a b=b é=é", "g5": "a= a=v"}),
]
TIED = {"o1": {"g1", "g4"}, "o1, o2": set(), "o2": {"g5"}}


@pytest.mark.parametrize(("expr", "order", "sep", "expected"), CASES)
def test_the_same_text_as_duckdb_string_agg(con, expr, order, sep, expected):
    ours = _by_group(con, _compiled(expr, order, sep))
    assert ours == expected
    theirs = _by_group(con, f"string_agg({expr}, '{sep}' order by {order})")
    assert {g: v for g, v in ours.items() if g not in TIED[order]} == \
        {g: v for g, v in theirs.items() if g not in TIED[order]}
