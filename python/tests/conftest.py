"""Shared fixtures: the published warehouse, built once per test session when it is missing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalhouse import paths
from evalhouse.warehouse import connect_readonly

PROJECT = Path(__file__).resolve().parents[2]


def _build_warehouse() -> None:
    env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT))
    evalhouse = Path(sys.executable).with_name("evalhouse")
    subprocess.run([str(evalhouse), "build", "--quiet"], cwd=PROJECT, env=env, check=True)


@pytest.fixture(scope="session")
def warehouse():
    """A read-only connection to the published warehouse (`make test` builds it before pytest)."""
    if not paths.published_db().is_file():
        _build_warehouse()
    con = connect_readonly()
    yield con
    con.close()
