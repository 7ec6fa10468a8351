"""Run settings of the DuckDB build read from the environment, checked by `evalhouse build` before dbt runs."""
from __future__ import annotations

import os

__all__ = ["memory_limit"]


def memory_limit() -> str | None:
    """``EVALHOUSE_MEMORY_LIMIT`` as DuckDB reports it once set (e.g. ``3GB`` -> ``'2.7 GiB'``), or None when unset
    or blank (DuckDB's default: 80 % of the machine's memory). The on-run-start hook apply_memory_limit
    (macros/maintenance.sql) sets it for the build. DuckDB itself parses the value, in a throw-away in-memory
    database, so what passes here is what the hook will set. Raises ValueError naming the variable when DuckDB
    refuses the value (``80%``, ``3000000000`` without a unit), for a value starting with ``-`` (DuckDB takes
    ``-1GB`` and even ``-0`` for no limit at all) and for a size DuckDB cannot run a query within (``0GB``, ``3KB``). A size that passes can still
    be too small for a build: DuckDB then fails the build's models with an Out of Memory Error."""
    raw = os.environ.get("EVALHOUSE_MEMORY_LIMIT")
    if raw is None or raw.strip() == "":
        return None
    expected = f"EVALHOUSE_MEMORY_LIMIT={raw!r}: expected a DuckDB memory size such as 3GB or 2500MiB"
    if raw.strip().startswith("-"):  # DuckDB takes any size with a minus sign, -0 too, for no limit at all
        raise ValueError(f"{expected}, not one starting with '-' (DuckDB would take it for no limit at all; unset "
                         "the variable for DuckDB's default)")
    import duckdb

    try:
        with duckdb.connect() as con:
            con.execute(f"set memory_limit = '{raw.strip().replace(chr(39), chr(39) * 2)}'")
            return con.execute("select current_setting('memory_limit')").fetchone()[0]
    except duckdb.OutOfMemoryException as exc:
        first_line = str(exc).strip().splitlines()[0]
        raise ValueError(f"EVALHOUSE_MEMORY_LIMIT={raw!r}: too small, DuckDB cannot run a query within it "
                         f"(DuckDB: {first_line})") from None
    except duckdb.Error as exc:
        first_line = str(exc).strip().splitlines()[0]
        raise ValueError(f"{expected} (DuckDB: {first_line})") from None
