"""dbt's run-time names for sqlfluff's jinja templater (`.sqlfluff`: library_path = lint/sqlfluff_dbt).

sqlfluff renders each model with jinja, not with dbt. Its dbt builtins give `ref`, `source`, `config`, `this`,
`is_incremental` and a `var` that returns a placeholder; this module adds what the project's macros use besides, so
the linted SQL is the SQL DuckDB runs:

- `var(name, default)`: the value in dbt_project.yml's `vars` (else the default), so the models that read vars
  render as they do in a build;
- `adapter.dispatch(name, package)`: the `duckdb__<name>` macro (else `default__<name>`), as dbt picks it for the
  DuckDB adapter; a `lint__<name>` macro (lint/sqlfluff_macros) comes first, the stand-in of a generated expression
  too deep for sqlfluff's parser;
- `execute` false (dbt's parse phase: macros that query the warehouse or the graph render their placeholder);
- `exceptions.raise_compiler_error(msg)` stops the render with msg, `modules.re` is Python's re;
- `target`: the DuckDB output (`target.type` is 'duckdb'); `adapter.get_relation` (no relation: the first build)
  and `local_md5`, which the incremental rating chain's macros read (macros/rating_chain.sql).
"""
from __future__ import annotations

import re as _re
from pathlib import Path as _Path

import yaml as _yaml
from jinja2 import pass_context as _pass_context

_PROJECT_VARS = (_yaml.safe_load((_Path(__file__).resolve().parents[2] / "dbt_project.yml").read_text()) or {}).get(
    "vars", {})

execute = False


def var(name, default=None):
    """The project variable `name` from dbt_project.yml, else `default`."""
    return _PROJECT_VARS.get(name, default)


class _Adapter:
    @_pass_context
    def dispatch(self, context, macro_name, macro_namespace=None):
        """The DuckDB implementation of `macro_name`, as dbt's adapter.dispatch picks it."""
        for prefix in ("lint__", "duckdb__", "default__"):
            macro = context.get(prefix + macro_name)
            if macro is not None:
                return macro
        raise LookupError(f"adapter.dispatch: no lint__, duckdb__ or default__ implementation of {macro_name}")

    def type(self):
        return "duckdb"

    def get_relation(self, database=None, schema=None, identifier=None):
        """No relation exists while linting (the SQL of a first, full build)."""
        return None


def local_md5(text):
    """md5 hex digest of text, as dbt's local_md5."""
    import hashlib

    return hashlib.md5(str(text).encode()).hexdigest()


class _Exceptions:
    def raise_compiler_error(self, message):
        raise RuntimeError(message)

    def warn(self, message):
        return ""


class _Modules:
    re = _re


class _Target:
    """dbt's `target` for the DuckDB output of profiles.yml (models pick an implementation by target.type)."""
    type = "duckdb"
    name = "dev"
    database = "evalhouse"
    schema = "main"


adapter = _Adapter()
exceptions = _Exceptions()
modules = _Modules()
target = _Target()
