"""Compare two warehouse builds row by row: every fct_ and dim_ table (and any --also tables).

Usage: .venv/bin/python bench/compare_builds.py BEFORE.duckdb AFTER.duckdb [--also int_first_filter ...]
       [--allow TABLE.COLUMN ...]

For each table present in either build: the columns added or removed, then the rows compared over the common
columns. Rows are matched after sorting on every common column (floats rounded to 9 significant digits for the
sort only); two values are equal when both are NULL, or both are floats within 1e-12 (absolute or relative), or they
compare equal. A difference in a column named with --allow (an intended change) is counted apart and does not fail.
Exit status 0 when nothing but allowed differences and added columns were found, 1 otherwise.
"""
from __future__ import annotations

import argparse
import math
import sys
from decimal import Decimal

import duckdb

TOL = 1e-12


# Every build is attached under the catalog name its views were created in: a view reads
# "evalhouse"."main"."int_ratings", whatever the file is called (so each build gets its own connection).
CATALOG = "evalhouse"


def _open(path: str) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(f"attach '{path}' as {CATALOG} (read_only)")
    con.execute(f"use {CATALOG}")
    return con


def _tables(con: duckdb.DuckDBPyConnection, extra: list[str]) -> set[str]:
    rows = con.execute(
        "select table_name from duckdb_tables() where database_name = ? "
        "union select view_name from duckdb_views() where database_name = ? and not internal",
        [CATALOG, CATALOG],
    ).fetchall()
    return {r[0] for r in rows if r[0].startswith(("fct_", "dim_")) or r[0] in extra}


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [r[0] for r in con.execute(f"select * from {CATALOG}.main.{table} limit 0").description]


def sort_key(row: tuple) -> tuple:
    """A row's key for sorting two builds' rows alike: NULLs first, numbers as floats (rounded to 9 significant
    digits, for the sort only, so that tiny values such as 1e-42 and 1e-12 still sort apart; a NaN or infinity sorts
    last), everything else as text."""
    out = []
    for v in row:
        if v is None:
            out.append((0, ""))
        elif isinstance(v, float):
            out.append((1, float(f"{v:.9g}") if math.isfinite(v) else float("inf")))
        elif isinstance(v, (int, Decimal, bool)):
            out.append((1, float(v)))
        else:
            out.append((2, str(v)))
    return tuple(out)


def same(a, b, tol: float = TOL, norm=lambda v: v) -> bool:
    """NULL = NULL; floats within ``tol`` absolute or relative (NaN = NaN); lists element by element; otherwise
    ``norm(a) == norm(b)``."""
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        a, b = float(a), float(b)
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b or abs(a - b) <= tol or abs(a - b) <= tol * max(abs(a), abs(b))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y, tol, norm) for x, y in zip(a, b))
    return norm(a) == norm(b)


def compare(before: str, after: str, also: list[str], allow: set[str]) -> int:
    con_b, con_a = _open(before), _open(after)
    tb, ta = _tables(con_b, also), _tables(con_a, also)
    failures = 0
    for t in sorted(tb - ta):
        print(f"{t}: only in BEFORE")
        failures += 1
    for t in sorted(ta - tb):
        print(f"{t}: only in AFTER (new table)")
    n_rows = 0
    for t in sorted(tb & ta):
        cb, ca = _columns(con_b, t), _columns(con_a, t)
        common = [c for c in cb if c in ca]
        notes = []
        if set(ca) - set(cb):
            notes.append(f"added {sorted(set(ca) - set(cb))}")
        if set(cb) - set(ca):
            notes.append(f"REMOVED {sorted(set(cb) - set(ca))}")
            failures += 1
        cols = ", ".join(f'"{c}"' for c in common)
        rb = sorted(con_b.execute(f"select {cols} from {CATALOG}.main.{t}").fetchall(), key=sort_key)
        ra = sorted(con_a.execute(f"select {cols} from {CATALOG}.main.{t}").fetchall(), key=sort_key)
        n_rows += len(rb)
        if len(rb) != len(ra):
            print(f"{t}: ROW COUNT {len(rb)} -> {len(ra)}")
            failures += 1
            continue
        diffs: dict[str, int] = {}
        examples: dict[str, tuple] = {}
        for x, y in zip(rb, ra):
            for c, u, v in zip(common, x, y):
                if not same(u, v):
                    diffs[c] = diffs.get(c, 0) + 1
                    examples.setdefault(c, (u, v))
        bad = {c: n for c, n in diffs.items() if f"{t}.{c}" not in allow}
        ok = {c: n for c, n in diffs.items() if f"{t}.{c}" in allow}
        status = "DIFFERENT" if bad else "identical"
        if bad:
            failures += 1
        detail = "; ".join(f"{c}: {n} rows, e.g. {examples[c][0]!r} -> {examples[c][1]!r}" for c, n in bad.items())
        allowed = "; ".join(f"{c}: {n} rows (allowed), e.g. {examples[c][0]!r} -> {examples[c][1]!r}"
                            for c, n in ok.items())
        print(f"{t}: {len(rb)} rows x {len(common)} columns {status}"
              + (f" [{'; '.join(notes)}]" if notes else "") + (f" {detail}" if detail else "")
              + (f" {allowed}" if allowed else ""))
    print(f"{len(tb & ta)} tables, {n_rows} rows compared; {failures} failing")
    return 1 if failures else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--also", nargs="*", default=[], help="further tables to compare (e.g. int_first_filter)")
    ap.add_argument("--allow", nargs="*", default=[], help="TABLE.COLUMN whose differences are intended")
    a = ap.parse_args()
    sys.exit(compare(a.before, a.after, a.also, set(a.allow)))


if __name__ == "__main__":
    main()
