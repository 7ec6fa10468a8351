"""Where the project, the warehouse and the stores are.

The project root is ``$EVALHOUSE_PROJECT_DIR`` when set, else the nearest folder at or above the current
directory that holds ``dbt_project.yml``, else the folder this package was installed from.
"""
from __future__ import annotations

import os
from pathlib import Path


def project_dir() -> Path:
    env = os.environ.get("EVALHOUSE_PROJECT_DIR")
    if env:
        return Path(env).resolve()
    here = Path.cwd().resolve()
    for candidate in (here, *here.parents):
        if (candidate / "dbt_project.yml").is_file():
            return candidate
    return Path(__file__).resolve().parents[2]


def build_db() -> Path:
    """The DuckDB file `dbt build` writes (``$EVALHOUSE_DB`` overrides it, as in profiles.yml)."""
    env = os.environ.get("EVALHOUSE_DB")
    return Path(env).resolve() if env else project_dir() / "warehouse" / "build" / "evalhouse.duckdb"


def published_db() -> Path:
    """The published, read-only copy readers open (``$EVALHOUSE_PUBLISHED_DB`` overrides it).

    It has the same file name as the build file, so views that name their database keep working.
    """
    env = os.environ.get("EVALHOUSE_PUBLISHED_DB")
    return Path(env).resolve() if env else project_dir() / "warehouse" / "evalhouse.duckdb"


def ratings_store() -> Path:
    return project_dir() / "data" / "ratings"


def blind_keys_dir() -> Path:
    return project_dir() / "data" / "blind" / "keys"
