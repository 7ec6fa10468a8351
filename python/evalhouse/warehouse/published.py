"""Publishing the built warehouse and opening it read-only.

DuckDB allows one writer or many readers per file. `dbt build` writes ``warehouse/build/evalhouse.duckdb``;
``publish`` copies it to a temporary file beside ``warehouse/evalhouse.duckdb`` and renames it over that file
(``os.replace``, atomic on POSIX), so a reader never sees a half-built warehouse and never blocks a build.
Both files have the same name, so views that name their catalog keep resolving.

Before copying, ``publish`` drops leftover ``__dbt_tmp`` relations (dbt-duckdb leaves one per incremental run of a
Python model; the dbt on-run-end hook drops them too) and, when more than ``MAX_FREE_SHARE`` of the build file's
blocks are free, rewrites the build file compactly (``COPY FROM DATABASE`` into a fresh file that replaces it), so
neither file grows over rebuilds.
"""
from __future__ import annotations

import os
from pathlib import Path

import duckdb

from evalhouse.files import copy_replace

# Compact the build file when more than this share of its blocks is free. DuckDB reuses free blocks, so a file that
# is not compacted stays under about twice its live size; a rebuild of the bundled suites frees about 20 % of it, and
# compacting rewrites every table (3.8 s for the bundled suites' 200 MB file; the time grows with the file).
MAX_FREE_SHARE = 0.5
# DuckDB's storage format of the warehouse files evalhouse writes: profiles.yml gives dbt the same
# (storage_compatibility_version), so the build file and its compacted copy are written alike
STORAGE_VERSION = "v1.5.0"


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
        drop_dbt_tmp_relations(con)
        con.execute("checkpoint")
        total, free = con.execute("select total_blocks, free_blocks from pragma_database_size()").fetchone()
    if total and free / total > MAX_FREE_SHARE:
        from evalhouse import paths

        compact(build_file, cwd=paths.project_dir())
    copy_replace(build_file, published_file)
    return published_file


def drop_dbt_tmp_relations(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Drop every table or view whose name contains ``__dbt_tmp``; returns their names."""
    rows = con.execute("select table_schema, table_name, table_type from information_schema.tables "
                       "where table_catalog = current_database() and position('__dbt_tmp' in table_name) > 0"
                       ).fetchall()
    for schema, name, kind in rows:
        con.execute(f'drop {"view" if kind == "VIEW" else "table"} if exists "{schema}"."{name}"')
    return [name for _, name, _ in rows]


def compact(db_file: Path, cwd: Path | None = None) -> None:
    """Rewrite ``db_file`` without its free blocks: copy every schema, table, view and macro into a fresh file
    beside it (attached under the same catalog name, so view definitions keep resolving), then replace it.
    ``cwd``: the folder the views' relative file paths are resolved from (the dbt project), default the current."""
    import contextlib

    db_file = Path(db_file).resolve()
    fresh = db_file.with_name(f".compact-{os.getpid()}-{db_file.name}")
    fresh.unlink(missing_ok=True)
    try:
        with contextlib.chdir(cwd or Path.cwd()), duckdb.connect() as con:
            con.execute("set enable_progress_bar = false")
            catalog = db_file.stem  # the name views use for their own database
            con.execute(f"attach '{db_file}' as \"{catalog}\" (read_only)")
            con.execute(f"attach '{fresh}' as compact_copy (storage_version '{STORAGE_VERSION}')")
            con.execute(f'copy from database "{catalog}" to compact_copy')
            con.execute("detach compact_copy")
            con.execute(f'detach "{catalog}"')
        os.replace(fresh, db_file)
    finally:
        fresh.unlink(missing_ok=True)


def connect_readonly(db_file: Path | None = None) -> duckdb.DuckDBPyConnection:
    """A short-lived read-only connection to the published warehouse.

    Raises WarehouseMissing (with the "run make build" hint) when the file does not exist.
    """
    from evalhouse import paths

    db_file = Path(db_file) if db_file else paths.published_db()
    if not db_file.is_file():
        raise WarehouseMissing(f"{db_file}: the warehouse has not been built yet; run `make build`")
    return duckdb.connect(str(db_file), read_only=True)
