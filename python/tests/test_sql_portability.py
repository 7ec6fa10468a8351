"""`make lint-sql` (evalhouse.lint.sql_portability): an engine-specific construct outside a dispatch macro fails, with
the model file, the line and the construct named; the same construct in a duckdb_only model is a note; the project
itself passes."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalhouse.lint import sql_portability as lint

PROJECT = Path(__file__).resolve().parents[2]


def _manifest(models: dict[str, tuple[str, list[str]]]) -> dict:
    nodes = {}
    for path, (code, tags) in models.items():
        name = Path(path).stem
        nodes[f"model.evalhouse.{name}"] = {
            "resource_type": "model", "language": "sql", "package_name": "evalhouse", "name": name,
            "original_file_path": path, "raw_code": code, "compiled_code": code, "tags": tags,
            "depends_on": {"macros": [], "nodes": []},
        }
    return {"nodes": nodes, "macros": {}}


def _run(tmp_path: Path, models: dict[str, tuple[str, list[str]]]) -> subprocess.CompletedProcess:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(_manifest(models)))
    return subprocess.run([sys.executable, "-m", "evalhouse.lint.sql_portability", "--manifest", str(path),
                           "--project", str(tmp_path), "--notes"], capture_output=True, text=True)


def test_a_planted_engine_function_outside_a_dispatch_macro_fails(tmp_path):
    planted = ("-- a DuckDB-only function written in the model\n"
               "select response_id,\n       json_valid(raw_output) as is_json\nfrom {{ ref('int_responses') }}\n")
    done = _run(tmp_path, {"models/marts/core/fct_planted.sql": (planted, [])})
    assert done.returncode == 1, done.stdout
    assert "models/marts/core/fct_planted.sql:3: error: json_valid()" in done.stdout


@pytest.mark.parametrize(("sql", "construct"), [
    ("select regexp_replace(a, 'x+', '', 'g') as b from t", "regexp_replace(..., 'g')"),
    ("select regexp_extract(a, 'INV-(\\d+)', 1) as b from t", "backslash class"),
    ("select regexp_extract_all(a, '[0-9]+(\\.[0-9]+)?', 0) as b from t", "backslash class"),
    ("select datediff('day', a, b) as d from t", "datediff('part', ...)"),
    ("select * exclude (a) from t", "select * exclude (...)"),
    ("select string_agg(a, ',') as b from t", "string_agg() / listagg()"),
    ("select cast(a as varchar) as b from t", "cast(... as varchar)"),
    ("select quantile_cont(a, 0.5) as b from t", "quantile()"),
])
def test_each_rule_names_its_construct(sql, construct):
    findings = lint.rule_findings("models/x.sql", sql)
    assert any(f.construct.startswith(construct) for f in findings), findings


def test_constructs_inside_jinja_comments_and_literals_are_not_findings():
    sql = ("-- json_valid(x) in a comment\n"
           "select {{ json_is_valid('raw_output') }} as ok, 'string_agg(' as label, "
           "cast(a as string) as b, cast(c as varchar(10)) as d, regexp_replace(e, '[^\\\\p{L}]+', ' ') as f from t\n")
    assert lint.rule_findings("models/x.sql", sql) == []


def test_a_duckdb_only_model_gives_a_note_not_a_failure(tmp_path):
    done = _run(tmp_path, {"models/intermediate/int_py_side.sql": ("select json_valid(a) as ok from t",
                                                                  ["duckdb_only"])})
    assert done.returncode == 0, done.stdout
    assert "note (duckdb_only): json_valid()" in done.stdout


def test_sqlglot_reports_what_it_cannot_parse(tmp_path):
    found = lint.transpile_finding("models/x.sql", "select from where (")
    assert found is not None and "sqlglot" in found.construct


def test_the_project_passes():
    manifest = PROJECT / "target" / "manifest.json"
    data = json.loads(manifest.read_text()) if manifest.is_file() else {}
    compiled = [n for n in data.get("nodes", {}).values() if n.get("compiled_code")]
    if len(compiled) < 50:  # no build in this checkout: build it (some models read built tables while compiling;
        # the build is serialised with any other test worker's), then compile
        from conftest import _build_warehouse

        _build_warehouse()
        env = dict(os.environ, DBT_PROFILES_DIR=str(PROJECT), EVALHOUSE_PROJECT_DIR=str(PROJECT))
        subprocess.run([str(Path(sys.executable).with_name("dbt")), "compile", "--quiet"], cwd=PROJECT, env=env,
                       check=True)
        data = json.loads(manifest.read_text())
    errors = [f for f in lint.check_manifest(data, PROJECT) if f.portable]
    assert errors == [], "\n".join(map(str, errors))



def _test_node(name: str, code: str, model: str, generic: bool = True) -> dict:
    return {"resource_type": "test", "package_name": "evalhouse", "name": name,
            "original_file_path": "models/marts/_x__models.yml" if generic else f"tests/{name}.sql",
            "raw_code": "{{ test_x(**_dbt_generic_test_kwargs) }}" if generic else code, "compiled_code": code,
            "tags": [], "depends_on": {"macros": ["macro.evalhouse.test_x"] if generic else [],
                                       "nodes": [f"model.evalhouse.{model}"]},
            **({"test_metadata": {"name": "x"}} if generic else {})}


def _with_tests(portable_generic: bool) -> dict:
    manifest = _manifest({"models/marts/fct_a.sql": ("select 1 as a", []),
                          "models/marts/fct_b.sql": ("select 1 as a", ["duckdb_only"])})
    manifest["macros"]["macro.evalhouse.test_x"] = {
        "name": "test_x", "package_name": "evalhouse", "original_file_path": "tests/generic/test_x.sql",
        "macro_sql": "{% test x(model) %}\nselect * from {{ model }} where json_valid(a)\n{% endtest %}",
        "depends_on": {"macros": []}}
    manifest["nodes"]["test.evalhouse.t_x"] = _test_node("t_x", "select a from fct where",
                                                         "fct_a" if portable_generic else "fct_b")
    manifest["nodes"]["test.evalhouse.assert_s"] = _test_node(
        "assert_s", "select a from fct_a where cast(a as varchar) <> ''", "fct_a", generic=False)
    return manifest


def test_a_generic_test_of_a_portable_model_is_held_to_the_rules():
    """Generic tests run on Spark with the model they test: its macro's engine-specific construct and compiled SQL
    sqlglot cannot read are errors; in a test of a duckdb_only model they are not, and a singular test (DuckDB-only,
    excluded on Spark) gives notes."""
    findings = lint.check_manifest(_with_tests(portable_generic=True))
    errors = sorted((f.path, f.line, f.construct.split(" ")[0]) for f in findings if f.portable)
    assert errors == [("models/marts/_x__models.yml (t_x)", 1, "sqlglot"),
                      ("tests/generic/test_x.sql", 2, "json_valid()")], errors
    assert [(f.path, f.line) for f in findings if not f.portable] == [("tests/assert_s.sql", 1)]
    findings = lint.check_manifest(_with_tests(portable_generic=False))
    assert [f for f in findings if f.portable] == []
    assert {f.path for f in findings} == {"models/marts/_x__models.yml (t_x)", "tests/assert_s.sql"}
