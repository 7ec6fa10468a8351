"""`make lint-sql`: engine-specific SQL only inside dispatch macros (DuckDB -> Spark portability).

Two checks on every SQL model and data test of dbt's manifest (``dbt compile`` on the DuckDB target):

1. sqlglot transpiles the compiled model from DuckDB to Spark with ``unsupported_level=RAISE``: what sqlglot cannot
   parse or knows it cannot translate is reported.
2. The project's rules, for what sqlglot translates silently wrong or lets through (../shared/SPARK.md section 5):
   DuckDB-only functions and syntax (``json_valid``, ``regexp_matches``, ``regexp_replace(..., 'g')``, ``\\d`` and
   other backslash classes in a string literal, ``datediff('day', ...)``, ``select * exclude``, ``string_agg`` /
   ``listagg``, a bare ``varchar``, ...) looked for in the model's own SQL with its Jinja removed, and in the body of
   every project macro the portable models call, except the ``duckdb__`` forms of dispatch macros. Such a construct
   belongs in a dispatch macro (macros/portable.sql: a ``duckdb__`` and a ``default__`` / ``spark__`` form).

Generic data tests of portable models run on Spark too (their compiled SQL and the project's generic-test macros are
checked as a portable model's); singular tests (excluded on Spark) and tests of duckdb_only models give notes.
Models tagged ``duckdb_only`` (disabled on Spark, listed in the README) are transpiled too, but their findings are
notes, not failures. The portable SQL forms of Python marts (models/marts/spark/, disabled on DuckDB) are compiled
in place of their Python twins (var portable_forms_on_duckdb) and checked as portable models. Exit status 1 when
a portable model or macro has a finding; each line names the file, the line and the construct.

Usage: python -m evalhouse.lint.sql_portability [--project DIR] [--manifest PATH] [--no-compile]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

DUCKDB_ONLY_TAG = "duckdb_only"

# (pattern, construct, what to do instead). Patterns run on SQL with Jinja, comments and (except the literal rule)
# string literals blanked, case-insensitive.
RULES: list[tuple[str, str, str]] = [
    (r"\bjson_valid\s*\(", "json_valid()", "Spark has no json_valid (sqlglot keeps it): use json_is_valid()"),
    (r"\bjson_extract(_string)?\s*\(", "json_extract()", "use json_text() (Spark: get_json_object)"),
    (r"->>|->", "JSON arrow operator", "use json_text()"),
    (r"\bregexp_matches\s*\(", "regexp_matches()", "use regex_contains()"),
    (r"\bregexp_full_match\s*\(", "regexp_full_match()", "use regex_full_match()"),
    (r"\bregexp_replace\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*,\s*'[a-z]*g[a-z]*'\s*\)",
     "regexp_replace(..., 'g')",
     "Spark reads the 4th argument as a position (NULL, no error): use regex_replace_all()"),
    (r"\bdate_?diff\s*\(\s*'", "datediff('part', ...)",
     "Spark's datediff(DAY, ...) counts 24 h periods: use {{ dbt.datediff(a, b, 'day') }}"),
    (r"\*\s*exclude\s*\(", "select * exclude (...)", "Spark has * except, DuckDB * exclude: list the columns"),
    (r"\b(string_agg|listagg|group_concat)\s*\(", "string_agg() / listagg()",
     "dbt.listagg ignores order on Spark: use string_agg_ordered()"),
    (r"\bstrftime\s*\(|\bstrptime\s*\(", "strftime() / strptime()", "use a dispatch macro (Spark: date_format)"),
    (r"\bas\s+varchar\b(?!\s*\()", "cast(... as varchar)", "Spark needs a length for VARCHAR: cast as string"),
    (r"\b(list_[a-z_]+|len|string_split|unnest|generate_subscripts|list|array_length)\s*\(", "DuckDB list function",
     "use list_size() / list_element() / split_pieces() / unnest_positions()"),
    (r"\bquantile(_cont|_disc)?\s*\(", "quantile()", "use percentile_cont()"),
    (r"\bread_(csv|csv_auto|parquet|json|json_auto|blob|text)\s*\(", "read_csv() / read_parquet()",
     "read files through read_source()"),
    (r"\b(arg_max|arg_min)\s*\(", "arg_max() / arg_min()", "use max_by() / min_by() (both engines)"),
    (r"\b(epoch|epoch_ms|struct_pack|list_value|json_object|to_json|json)\s*\(", "DuckDB function",
     "use a dispatch macro"),
    (r"::\s*json\b", "::json", "use a dispatch macro"),
    (r"\btrunc\s*\(", "trunc()", "trunc(number) on DuckDB is trunc(date, fmt) on Spark: use floor() / cast"),
    (r"\b(hash|random|rand|uuid|gen_random_uuid)\s*\(", "hash() / random()",
     "differs by engine or run: use md5 (short_hash) or the integer PRNG"),
    (r"\bregexp_split_to_array\s*\(|\bstr_split\s*\(", "regexp_split_to_array()", "use a dispatch macro"),
    (r"\b(error)\s*\(", "error()", "use raise_query_error()"),
    (r"\bstrpos\s*\(", "strpos()", "Spark has no strpos: use instr(text, part) (both engines, 1-based, 0 if absent)"),
]
# A backslash in a string literal: Spark's parser reads it as an escape ('\d' -> 'd', '\.' -> '.') with no error,
# DuckDB keeps it. A doubled backslash is Spark's spelling of one (default__ forms of dispatch macros) and passes.
LITERAL_RULE = (re.compile(r"(?<!\\)(?:\\\\)*\\(?!\\)"),
                "backslash class or escape (\\d, \\s, \\., ...) in a string literal",
                "Spark reads the backslash as an escape in a literal: write [0-9], [.], [ ] or a character class")

_JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_COMMENT = re.compile(r"--[^\n]*|/\*.*?\*/", re.S)
_LITERAL = re.compile(r"'(?:[^']|'')*'", re.S)
_DISPATCH_FORM = re.compile(r"^(duckdb)__")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    construct: str
    advice: str
    portable: bool = True

    def __str__(self) -> str:
        kind = "error" if self.portable else "note (duckdb_only)"
        return f"{self.path}:{self.line}: {kind}: {self.construct}: {self.advice}"


def _blank(match: re.Match) -> str:
    """Replace a match by spaces, keeping its newlines (line numbers stay right)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def strip_sql(code: str, keep_literals: bool = False) -> str:
    """SQL with Jinja blocks and comments blanked, and (unless keep_literals) string literals emptied."""
    out = _JINJA.sub(_blank, code)
    # comments before literals: an apostrophe in a comment must not open a literal
    out = _COMMENT.sub(_blank, out)
    if not keep_literals:
        out = _LITERAL.sub(lambda m: "'" + _blank(m)[1:-1] + "'", out)
    return out


def rule_findings(path: str, code: str, portable: bool = True, offset: int = 0) -> list[Finding]:
    """The project's rules over one model's raw SQL (or one macro body starting at line offset + 1)."""
    findings = []
    bare = strip_sql(code)
    for pattern, construct, advice in RULES:
        # the regexp_replace rule needs the flag literal; the others run with literals emptied
        text = strip_sql(code, keep_literals=True) if "regexp_replace" in pattern else bare
        for m in re.finditer(pattern, text, flags=re.I):
            findings.append(Finding(path, offset + text.count("\n", 0, m.start()) + 1, construct, advice, portable))
    with_literals = strip_sql(code, keep_literals=True)
    for lit in _LITERAL.finditer(with_literals):
        if LITERAL_RULE[0].search(lit.group(0)):
            line = offset + with_literals.count("\n", 0, lit.start()) + 1
            findings.append(Finding(path, line, LITERAL_RULE[1], LITERAL_RULE[2], portable))
    return findings


def transpile_finding(path: str, compiled: str, portable: bool = True) -> Finding | None:
    """sqlglot DuckDB -> Spark with unsupported constructs raised; None when it translates."""
    import sqlglot
    from sqlglot.errors import ErrorLevel, ParseError, UnsupportedError

    # generated expressions (the GRADE casefold chains) nest deeper than Python's default recursion limit
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 100_000))
    try:
        for tree in sqlglot.parse(compiled, read="duckdb"):
            if tree is not None:
                tree.sql(dialect="spark", unsupported_level=ErrorLevel.RAISE)
    except (ParseError, UnsupportedError, RecursionError) as exc:
        message = " ".join(str(exc).split())[:300]
        return Finding(path, 1, f"sqlglot cannot translate to Spark ({type(exc).__name__})", message, portable)
    return None


def _macro_closure(manifest: dict, roots: set[str]) -> set[str]:
    """Project macros reachable from the given macro unique ids."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        uid = todo.pop()
        if uid in seen or uid not in manifest["macros"]:
            continue
        seen.add(uid)
        todo.extend(manifest["macros"][uid].get("depends_on", {}).get("macros", []))
    return seen


def test_runs_on_spark(node: dict, nodes: dict) -> bool:
    """A data test runs on the Spark target when it is a generic test (singular and unit tests are DuckDB SQL checks,
    excluded there: bench/compare_spark.py) and every model it reads is portable (not tagged duckdb_only)."""
    if not node.get("test_metadata"):
        return False
    models = [nodes[uid] for uid in node.get("depends_on", {}).get("nodes", []) if uid in nodes]
    return all(DUCKDB_ONLY_TAG not in (m.get("tags") or []) for m in models)


def check_manifest(manifest: dict, project: Path = Path("."), project_name: str = "evalhouse") -> list[Finding]:
    """Every finding of the two checks over the manifest's SQL models and data tests and the project macros they
    call. Generic tests of portable models (they run on Spark) are held to the rules like portable models; singular
    tests and tests of duckdb_only models give notes."""
    findings: list[Finding] = []
    portable_macros: set[str] = set()
    nodes = manifest["nodes"]
    for node in nodes.values():
        if node.get("package_name") != project_name:
            continue
        if node.get("resource_type") == "test":
            portable = test_runs_on_spark(node, nodes)
            # a generic test's file is the YAML that declares it: name the test too
            path = node["original_file_path"] + (f" ({node['name']})" if node.get("test_metadata") else "")
        elif node.get("resource_type") == "model" and node.get("language", "sql") == "sql":
            portable = DUCKDB_ONLY_TAG not in (node.get("tags") or [])
            path = node["original_file_path"]
        else:
            continue
        if node.get("resource_type") == "model" or not node.get("test_metadata"):
            findings.extend(rule_findings(path, node.get("raw_code") or "", portable))
        compiled = node.get("compiled_code")
        if compiled:
            found = transpile_finding(path, compiled, portable)
            if found:
                findings.append(found)
        if portable:
            portable_macros |= _macro_closure(manifest, set(node.get("depends_on", {}).get("macros", [])))
    for uid in sorted(portable_macros):
        macro = manifest["macros"][uid]
        if macro.get("package_name") != project_name or _DISPATCH_FORM.match(macro["name"]):
            continue
        body, path = macro.get("macro_sql") or "", macro["original_file_path"]
        offset = 0
        source = project / path
        if source.is_file():
            text = source.read_text()
            start = text.find(body)
            offset = text.count("\n", 0, start) if start >= 0 else 0
        findings.extend(rule_findings(path, body, True, offset))
    return sorted(set(findings), key=lambda f: (not f.portable, f.path, f.line, f.construct))


# The portable SQL forms of Python marts (models/marts/spark/) are disabled on DuckDB; this var compiles them there in
# place of their Python twins (dbt_project.yml), so the SQL Spark builds is checked too.
PORTABLE_FORMS_VARS = "{portable_forms_on_duckdb: true}"


def compile_project(project: Path) -> None:
    """`dbt compile` on the default (DuckDB) target, the portable SQL forms of Python marts enabled in place of their
    Python twins (PORTABLE_FORMS_VARS): writes target/manifest.json with every compiled SQL model."""
    env = dict(os.environ, DBT_PROFILES_DIR=str(project), EVALHOUSE_PROJECT_DIR=str(project))
    dbt = Path(sys.executable).with_name("dbt")
    subprocess.run([str(dbt), "compile", "--quiet", "--vars", PORTABLE_FORMS_VARS], cwd=project, env=env, check=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--project", type=Path, default=Path(os.environ.get("EVALHOUSE_PROJECT_DIR", ".")))
    parser.add_argument("--manifest", type=Path, help="a manifest.json to check (default: PROJECT/target)")
    parser.add_argument("--no-compile", action="store_true", help="check the manifest as it is (no dbt compile)")
    parser.add_argument("--notes", action="store_true", help="print the notes on duckdb_only models too")
    args = parser.parse_args(argv)
    manifest_path = args.manifest or args.project / "target" / "manifest.json"
    if not args.no_compile and args.manifest is None:
        compile_project(args.project.resolve())
    manifest = json.loads(manifest_path.read_text())
    findings = check_manifest(manifest, args.project)
    errors = [f for f in findings if f.portable]
    notes = [f for f in findings if not f.portable]
    for f in errors + (notes if args.notes else []):
        print(f)
    n_models = sum(1 for n in manifest["nodes"].values()
                   if n.get("resource_type") == "model" and n.get("language", "sql") == "sql")
    n_tests = sum(1 for n in manifest["nodes"].values() if n.get("resource_type") == "test")
    print(f"lint-sql: {n_models} SQL models and {n_tests} data tests checked (sqlglot duckdb -> spark + project "
          f"rules): {len(errors)} error(s) in portable models and their tests, {len(notes)} note(s) in duckdb_only "
          "models and DuckDB-only tests"
          + ("" if args.notes or not notes else " (--notes to list)"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
