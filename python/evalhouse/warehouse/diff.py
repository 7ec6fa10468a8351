"""Compare the marts of two warehouse files row by row: ``evalhouse warehouse-diff OLD NEW``.

For every ``fct_`` / ``dim_`` table in both files, on the columns both have: the rows are sorted on every column
(floats rounded to 9 significant digits for the sort only) and compared cell by cell; floats are equal within
``tol`` (absolute, or relative to the larger magnitude), everything else exactly (NULL equals NULL). Tables or
columns present in one file only are reported, not compared. Used to prove a refactoring keeps every value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import pandas as pd

__all__ = ["TableDiff", "diff_warehouses"]


@dataclass
class TableDiff:
    table: str
    rows_old: int
    rows_new: int
    only_old_columns: list[str] = field(default_factory=list)
    only_new_columns: list[str] = field(default_factory=list)
    differences: list[str] = field(default_factory=list)

    @property
    def identical(self) -> bool:
        return self.rows_old == self.rows_new and not self.differences


def _marts(con) -> set[str]:
    rows = con.execute("select table_name from information_schema.tables where table_schema = 'main' "
                       "and (table_name like 'fct_%' or table_name like 'dim_%')").fetchall()
    return {r[0] for r in rows}


def _sort_key(v):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return (0, "")
    if isinstance(v, float):
        return (1, f"{v:.9g}")
    return (1, str(v))


def _equal(a, b, tol: float) -> bool:
    na = a is None or (isinstance(a, float) and math.isnan(a))
    nb = b is None or (isinstance(b, float) and math.isnan(b))
    if na or nb:
        return na and nb
    if isinstance(a, float) or isinstance(b, float):
        try:
            fa, fb = float(a), float(b)
        except (TypeError, ValueError):
            return False
        return abs(fa - fb) <= tol * max(1.0, abs(fa), abs(fb))
    return a == b


def _rows(con, table: str, cols: list[str]) -> list[tuple]:
    quoted = ", ".join(f'"{c}"' for c in cols)
    rows = con.execute(f'select {quoted} from "{table}"').fetchall()
    return sorted(rows, key=lambda r: tuple(_sort_key(v) for v in r))


def diff_warehouses(old: Path, new: Path, tol: float = 1e-12, max_shown: int = 5) -> list[TableDiff]:
    """Compare every mart of ``old`` and ``new`` (DuckDB files, opened read-only)."""
    out = []
    with duckdb.connect(str(old), read_only=True) as a, duckdb.connect(str(new), read_only=True) as b:
        for table in sorted(_marts(a) | _marts(b)):
            in_a, in_b = table in _marts(a), table in _marts(b)
            if not (in_a and in_b):
                d = TableDiff(table, -1 if not in_a else 0, -1 if not in_b else 0)
                d.differences.append("only in " + ("new" if in_b else "old"))
                out.append(d)
                continue
            ca = [r[0] for r in a.execute(f'describe "{table}"').fetchall()]
            cb = [r[0] for r in b.execute(f'describe "{table}"').fetchall()]
            common = [c for c in ca if c in cb]
            ra, rb = _rows(a, table, common), _rows(b, table, common)
            d = TableDiff(table, len(ra), len(rb), [c for c in ca if c not in cb], [c for c in cb if c not in ca])
            if len(ra) != len(rb):
                d.differences.append(f"{len(ra)} rows before, {len(rb)} after")
            for i, (x, y) in enumerate(zip(ra, rb)):
                bad = [c for c, u, v in zip(common, x, y) if not _equal(u, v, tol)]
                if bad:
                    d.differences.append(f"row {i}: {', '.join(f'{c}: {x[common.index(c)]!r} -> {y[common.index(c)]!r}' for c in bad[:4])}")
                    if len(d.differences) >= max_shown:
                        break
            out.append(d)
    return out


def summary(diffs: list[TableDiff]) -> pd.DataFrame:
    return pd.DataFrame([{"table": d.table, "rows_old": d.rows_old, "rows_new": d.rows_new,
                          "identical": d.identical, "columns_removed": ",".join(d.only_old_columns),
                          "columns_added": ",".join(d.only_new_columns)} for d in diffs])
