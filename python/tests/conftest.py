"""Shared fixtures: the published warehouse, built once per test session when it is missing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalhouse import paths
from evalhouse.warehouse import connect_readonly, publish

PROJECT = Path(__file__).resolve().parents[2]


def _build_warehouse() -> None:
    env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT))
    dbt = Path(sys.executable).with_name("dbt")
    subprocess.run([str(dbt), "build", "--no-use-colors", "--quiet"], cwd=PROJECT, env=env, check=True)
    publish(paths.build_db(), paths.published_db())


@pytest.fixture(scope="session")
def warehouse():
    """A read-only connection to the published warehouse (`make test` builds it before pytest)."""
    if not paths.published_db().is_file():
        _build_warehouse()
    con = connect_readonly()
    yield con
    con.close()
