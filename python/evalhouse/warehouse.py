"""Publishing the built warehouse and opening it read-only.

DuckDB allows one writer or many readers per file. `dbt build` writes ``warehouse/build/evalhouse.duckdb``;
``publish`` copies it to a temporary file beside ``warehouse/evalhouse.duckdb`` and renames it over that file
(``os.replace``, atomic on POSIX), so a reader never sees a half-built warehouse and never blocks a build.
Both files have the same name, so views that name their catalog keep resolving.
"""
from __future__ import annotations

from pathlib import Path

import duckdb

from evalhouse.files import copy_replace


class WarehouseMissing(FileNotFoundError):
    """No published warehouse yet: run `make build`."""


def publish(build_file: Path, published_file: Path) -> Path:
    """Copy ``build_file`` (checkpointed first) to ``published_file`` atomically; returns the published path.

    Raises FileNotFoundError naming the build file when it does not exist.
    """
    build_file, published_file = Path(build_file), Path(published_file)
    if not build_file.is_file():
        raise FileNotFoundError(f"{build_file}: no built warehouse; run `make build` (dbt build) first")
    with duckdb.connect(str(build_file)) as con:
        con.execute("checkpoint")
    copy_replace(build_file, published_file)
    return published_file


def connect_readonly(db_file: Path | None = None) -> duckdb.DuckDBPyConnection:
    """A short-lived read-only connection to the published warehouse.

    Raises WarehouseMissing (with the "run make build" hint) when the file does not exist.
    """
    from evalhouse import paths

    db_file = Path(db_file) if db_file else paths.published_db()
    if not db_file.is_file():
        raise WarehouseMissing(f"{db_file}: the warehouse has not been built yet; run `make build`")
    return duckdb.connect(str(db_file), read_only=True)
