# make build : venv + pinned deps + dbt build on the bundled data (offline)
# make test  : the same set-up, then the lint (ruff + sqlfluff), dbt build (models + dbt tests), lint-sql, the raw-data expectations and pytest
# make lint  : ruff on the Python (lint-python) and sqlfluff on the models, macros and data tests (.sqlfluff: DuckDB dialect, jinja templater)
# make lint-sql   : dbt compile, then every compiled model transpiled DuckDB -> Spark (sqlglot) + the portability rules
# make spark-setup: the optional Spark target (dbt-spark session + pyspark, requirements-spark.txt; Java 17+)
# make spark-test : the portable core built on local Spark, every shared mart compared with the DuckDB build
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
export DBT_PROFILES_DIR := $(CURDIR)
export DBT_SEND_ANONYMOUS_USAGE_STATS := false
export EVALHOUSE_PROJECT_DIR := $(CURDIR)

.PHONY: setup build test lint lint-python lint-sql dbt-build unit-tests pytest expectations bench clean app e2e-deps spark-setup spark-test

$(BIN)/.installed: requirements.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

setup: $(BIN)/.installed

# Checks and lands every suite (suites/), runs dbt build on what changed since the last build (every node after a
# code change; nothing when nothing changed), publishes; a suite problem stops before dbt runs.
# One build at a time: a second `make build` while one runs says "another build is running" and exits 1.
dbt-build: setup
	$(BIN)/evalhouse build

build: dbt-build

expectations: setup
	$(BIN)/evalhouse validate-decisions

# dbt's unit tests of the scoring SQL (given rows in, expected rows out; models/**/_*unit_tests.yml and the models'
# YAML). `evalhouse build` leaves them out, as dbt's docs advise for builds of data: they test the code, not the
# data. They need the models' parents built: make build first when there is no build.
unit-tests: setup
	@test -f warehouse/build/evalhouse.duckdb || { echo "unit-tests: no DuckDB build yet: running make build first"; $(MAKE) dbt-build; }
	$(BIN)/dbt test --no-use-colors --select "test_type:unit"

# One worker process per core (at most 4; pytest-xdist), each test module on one worker, so a module's built project
# copy is made once. `$(BIN)/pytest python/tests/test_x.py` runs one file in this process.
pytest: setup
	$(BIN)/pytest -q --numprocesses auto --maxprocesses 4 --dist loadscope

# ruff over the Python package, tests, dbt Python models, app and bench (rules in pyproject.toml [tool.ruff]).
lint-python: setup
	$(BIN)/ruff check .

# ruff, then the SQL as DuckDB runs it (jinja with dbt's builtins, the project's macros and vars; lint/sqlfluff_dbt).
lint: setup lint-python
	$(BIN)/sqlfluff lint models macros tests

# Engine-specific SQL only inside dispatch macros: dbt compile (DuckDB; var portable_forms_on_duckdb, so the Spark forms
# of Python marts in models/marts/spark/ are compiled too), then sqlglot DuckDB -> Spark with unsupported constructs
# raised, plus the project's rules for what sqlglot misses (python/evalhouse/lint/sql_portability.py).
# It compiles against the DuckDB build (some models read built tables while compiling): make build first when there
# is none; in `make test` it runs after the build.
lint-sql: setup
	@test -f warehouse/build/evalhouse.duckdb || { echo "lint-sql: no DuckDB build yet: running make build first"; $(MAKE) dbt-build; }
	$(BIN)/python -m evalhouse.lint.sql_portability

test: lint dbt-build unit-tests lint-sql expectations e2e-deps pytest

# Optional: the `spark` dbt target (profiles.yml) on a local Spark session; not part of `make build`.
$(BIN)/.spark-installed: requirements-spark.txt $(BIN)/.installed
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-spark.txt
	touch $@

spark-setup: $(BIN)/.spark-installed

# The portable core on local Spark (`dbt build --target spark`, warehouse + metastore under warehouse/build/spark),
# then every mart both builds have compared row by row with the DuckDB build (DECIMAL exact, floats to 1e-9; the
# bounds of fct_model_run_score_intervals, drawn by another PRNG on Spark, for NULL only).
# Needs Java 17+ and the DuckDB build (its landing files are Spark's input too): run here first when there is none.
spark-test: spark-setup
	@test -f warehouse/build/evalhouse.duckdb || { echo "spark-test: no DuckDB build yet: running make build first"; $(MAKE) dbt-build; }
	SPARK_LOCAL_IP=127.0.0.1 $(BIN)/python bench/compare_spark.py --build

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
