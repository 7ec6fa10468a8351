# make build : venv + pinned deps + dbt build on the bundled data (offline)
# make test  : the same set-up, then the lint (ruff + sqlfluff), dbt build (models + dbt tests), pytest and the raw-data expectations
# make lint  : ruff on the Python (lint-python) and sqlfluff on the models, macros and data tests (.sqlfluff: DuckDB dialect, jinja templater)
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export DBT_PROFILES_DIR := $(CURDIR)
export DBT_SEND_ANONYMOUS_USAGE_STATS := false
export EVALHOUSE_PROJECT_DIR := $(CURDIR)

.PHONY: setup build test lint lint-python dbt-build pytest expectations bench clean app e2e-deps

$(BIN)/.installed: requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(BIN)/.installed

# Checks and lands every suite (suites/), runs dbt build, publishes; a suite problem stops before dbt runs.
# One build at a time: a second `make build` while one runs says "another build is running" and exits 1.
dbt-build: setup
	$(BIN)/evalhouse build

build: dbt-build

expectations: setup
	$(BIN)/evalhouse validate-decisions

pytest: setup
	$(BIN)/pytest -q

# ruff over the Python package, tests, dbt Python models, app and bench (rules in pyproject.toml [tool.ruff]).
lint-python: setup
	$(BIN)/ruff check .

# ruff, then the SQL as DuckDB runs it (jinja with dbt's builtins, the project's macros and vars; lint/sqlfluff_dbt).
lint: setup lint-python
	$(BIN)/sqlfluff lint models macros tests

test: lint dbt-build expectations e2e-deps pytest

bench: setup
	$(BIN)/python bench/bench_larkfield.py

# The app on the published warehouse (http://127.0.0.1:8501).
app: setup
	$(BIN)/evalhouse app

# Debian's Chromium for the end-to-end browser test (Playwright drives it; no browser download). Idempotent.
e2e-deps:
	command -v chromium >/dev/null 2>&1 || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

clean:
	rm -rf target logs warehouse
