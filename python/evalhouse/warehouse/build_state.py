"""What a build must run: the code and inputs the last complete build saw, and which dbt sources changed since.

`evalhouse build` keeps, in the build file's one-row table ``_build_state``, a JSON document with

* ``code``: the sha256 of everything that decides what the models compute: every file under ``models/``,
  ``macros/``, ``seeds/`` and ``tests/``, ``dbt_project.yml``, ``profiles.yml``, the source files of the installed
  ``evalhouse`` package (the Python models and the suite landing call it), the Python version and the name and
  version of every installed distribution (dbt, DuckDB, pandas, scipy ...);
* ``sources``: per dbt source (``"ratings_store.ratings"``), the sha256 of the files its ``meta.path`` can read
  (``read_source``): every file under the path's folder up to its first wildcard whose name matches the path's
  last part in any case, or the one file it names.

Given that state, the next build runs (``plan``):

* every node, when there is no saved state (first build, or the last one failed or stopped half-way: the state is
  replaced by the reason there is none (``clear``) before dbt starts and after a build with dbt arguments, and saved
  only after a build of every node, or of what changed, passed; the plan's message gives that reason), when the code
  changed, when `evalhouse build` just dropped cached tables made by other code (``stale``), or when the caller
  asked for it (``--all-nodes``, or dbt arguments: ``--full-refresh`` saves the state, any other argument drops it,
  except those that change only how dbt runs and reports, ``OUTPUT_ONLY_ARGS``: ``--threads 1`` plans as no
  argument does);
* nothing, when no source changed: the tables in the build file were computed from the same code and inputs;
* else only the changed sources and everything downstream of them (``dbt build --select source:a.b+ ...``).

`evalhouse build` leaves the unit tests out of every plan: they read given rows, not data (``make unit-tests``).

Sound because every file a model reads goes through a declared source (``read_source``, macros/read_source.sql;
the decision models' Python parses the bytes its blob sources read; base_decisions__case_files, which opens the
case CSVs by path, names their three sources), and every other input is code. The
incremental rating chain is not special here: its inputs are ancestors of ``int_rating_groups``, so a change that
reaches any of them selects the whole chain.
"""
from __future__ import annotations

import fnmatch
import hashlib
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from evalhouse.files import files_under

__all__ = ["BuildPlan", "code_fingerprint", "source_paths", "source_fingerprints", "current_state", "load", "save",
           "clear", "plan", "scope_args"]

STATE_TABLE = "_build_state"
CODE_DIRS = ("models", "macros", "seeds", "tests")
CODE_FILES = ("dbt_project.yml", "profiles.yml", "packages.yml", "dependencies.yml")
_WILDCARD = re.compile(r"[*?\[]")
_ENV_VAR = re.compile(r"""\{\{\s*env_var\(\s*['"]([A-Za-z0-9_]+)['"]\s*(?:,\s*['"]([^'"]*)['"]\s*)?\)\s*\}\}""")
_JINJA_VAR = re.compile(r"""\{\{\s*var\(\s*['"]([A-Za-z0-9_]+)['"]\s*\)\s*\}\}""")
_BRACE_VAR = re.compile(r"[{]var:([a-z_]+)[}]")


def _hash_files(digest, root: Path, files) -> None:
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")


def code_fingerprint(project: Path) -> str:
    """sha256 of the project's code, the evalhouse package's source and the installed distributions (module doc)."""
    from importlib import metadata

    import evalhouse

    digest = hashlib.sha256()
    for name in CODE_DIRS:
        folder = project / name
        if folder.is_dir():
            _hash_files(digest, project, files_under(folder))
    _hash_files(digest, project, (project / n for n in CODE_FILES if (project / n).is_file()))
    package = Path(evalhouse.__file__).resolve().parent
    _hash_files(digest, package, (p for p in files_under(package) if p.suffix != ".pyc"))
    versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update(("\n".join([sys.version, *versions])).encode())
    return digest.hexdigest()


def _project_vars(project: Path) -> dict[str, str]:
    """dbt_project.yml's vars, with ``{{ env_var('NAME', 'default') }}`` resolved as dbt resolves it."""
    import yaml

    doc = yaml.safe_load((project / "dbt_project.yml").read_text(encoding="utf-8")) or {}
    out = {}
    for name, value in (doc.get("vars") or {}).items():
        if isinstance(value, str):
            value = _ENV_VAR.sub(lambda m: os.environ.get(m.group(1), m.group(2) or ""), value)
        out[str(name)] = str(value)
    return out


def source_paths(project: Path) -> dict[str, str | None]:
    """``"source.table"`` -> the path (relative to the project, or absolute) its ``meta.path`` names with the vars
    resolved as ``read_source`` resolves them, for every source declared in a YAML file under ``models/``; None
    when it cannot be resolved here (such a source counts as changed on every build)."""
    import yaml

    variables = _project_vars(project)
    out: dict[str, str | None] = {}
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML has it: 10x the pure-Python parser
    for yml in sorted((project / "models").rglob("*.yml")):
        text = yml.read_text(encoding="utf-8")
        if "sources:" not in text:  # the models' own YAML (most files, the largest): no source declared there
            continue
        doc = yaml.load(text, Loader=loader) or {}
        for source in doc.get("sources") or []:
            for table in source.get("tables") or []:
                meta = table.get("meta") or (table.get("config") or {}).get("meta") or {}
                path = str(meta.get("path") or "")
                path = _JINJA_VAR.sub(lambda m: variables.get(m.group(1), m.group(0)), path)
                path = _BRACE_VAR.sub(lambda m: variables.get(m.group(1), m.group(0)), path)
                path = path.replace("{landing}", variables.get("landing_dir", "{landing}"))
                resolved = path if path and "{" not in path else None
                out[f"{source['name']}.{table['name']}"] = resolved
    return out


def _files_of(project: Path, path: str) -> list[Path]:
    """Every file the path can read: those under its folder up to the first wildcard whose name matches the path's
    last part in any case (``*.csv``: ``a.CSV``, ``.b.csv`` too), or the file it names. More than DuckDB's glob
    reads (any depth, any case, hidden files), so the plan stays sound; a ``notes.txt`` beside the store's CSVs
    changes nothing."""
    full = Path(path) if Path(path).is_absolute() else project / path
    parts = full.parts
    for i, part in enumerate(parts):
        if _WILDCARD.search(part):
            folder = Path(*parts[:i])
            name = parts[-1].lower()
            return [f for f in files_under(folder) if fnmatch.fnmatchcase(f.name.lower(), name)]
    return [full] if full.is_file() else []


def source_fingerprints(project: Path) -> dict[str, str | None]:
    """``"source.table"`` -> sha256 of the names and bytes of the files it can read (``_files_of``); None for a
    source whose path cannot be resolved. Files are named relative to ``project`` when under it, so that a copy of
    a built project has the same state."""
    out: dict[str, str | None] = {}
    file_hashes: dict[Path, str] = {}  # a file several sources can read is read once
    for name, path in source_paths(project).items():
        if path is None:
            out[name] = None
            continue
        digest = hashlib.sha256(path.encode() + b"\0")
        for file in _files_of(project, path):
            if file not in file_hashes:
                file_hashes[file] = hashlib.sha256(file.read_bytes()).hexdigest()
            named = file.relative_to(project) if file.is_relative_to(project) else file
            digest.update(f"{named.as_posix()}\0{file_hashes[file]}\0".encode())
        out[name] = digest.hexdigest()
    return out


def current_state(project: Path) -> dict:
    """The state a build started now would save when it passes: {"code": sha256, "sources": {name: sha256}}."""
    return {"code": code_fingerprint(project), "sources": source_fingerprints(project)}


def _read(db: Path) -> dict | None:
    """The document in the build file's state table, or None (no build file, no table, or an unreadable one)."""
    import duckdb

    if not db.is_file():
        return None
    try:
        with duckdb.connect(str(db), read_only=True) as con:
            row = con.execute(f"select state from {STATE_TABLE}").fetchone()
        doc = json.loads(row[0]) if row else None
    except (duckdb.Error, json.JSONDecodeError):
        return None
    return doc if isinstance(doc, dict) else None


def load(db: Path) -> dict | None:
    """The state of the last complete build saved in the build file, or None (none saved, or ``clear`` replaced
    it)."""
    doc = _read(db)
    return None if doc is None or "incomplete" in doc else doc


def incomplete_reason(db: Path) -> str | None:
    """Why the build file holds no complete build, as ``clear`` recorded it; None when it did not (no build file,
    a complete build, or a file from before reasons were kept)."""
    return (_read(db) or {}).get("incomplete")


def save(db: Path, state: dict, con=None) -> None:
    """Keep ``state`` in the build file (replacing any saved one); through ``con`` when given (an open connection
    to ``db``: each connection's commit writes the 1 GB file's checkpoint, some 0.3 s)."""
    import duckdb

    if con is not None:
        con.execute(f"create or replace table {STATE_TABLE} as select ? as state", [json.dumps(state, sort_keys=True)])
        return
    with duckdb.connect(str(db)) as own:
        save(db, state, own)


def clear(db: Path, why: str = "the last build did not finish (it failed or was stopped)") -> None:
    """Replace the saved state by the reason there is none (``why``, shown by the next plan), so that a build that
    does not finish, or runs only part of the project, leaves the next one to run every node."""
    if db.is_file():
        save(db, {"incomplete": why})


@dataclass(frozen=True)
class BuildPlan:
    """What ``evalhouse build`` runs. ``selectors``: None = every node, [] = nothing (dbt is not started), else the
    ``--select`` arguments; ``changed``: the changed sources; ``save``: whether a passing build saves ``state``;
    ``reason``: one line for the user."""
    selectors: list[str] | None
    changed: list[str]
    state: dict
    save: bool
    reason: str


# dbt build arguments that change how dbt runs and reports, never what it builds: (flag, takes a value)
OUTPUT_ONLY_ARGS = {"--threads": True, "--log-level": True, "--log-format": True, "--printer-width": True,
                    "--log-level-file": True, "--log-format-file": True, "--log-path": True,
                    "-q": False, "--quiet": False, "-x": False, "--fail-fast": False, "--no-fail-fast": False,
                    "-d": False, "--debug": False, "--use-colors": False, "--no-use-colors": False}


def scope_args(dbt_args: list[str]) -> list[str]:
    """``dbt_args`` without the ``OUTPUT_ONLY_ARGS`` (and their values, given as ``--threads 1`` or
    ``--threads=1``): the arguments that may change what dbt builds. ``scope_args(["--threads", "1", "-s", "m"])``
    is ``["-s", "m"]``."""
    out, i = [], 0
    while i < len(dbt_args):
        flag = dbt_args[i].split("=", 1)[0]
        if flag in OUTPUT_ONLY_ARGS:
            i += 2 if OUTPUT_ONLY_ARGS[flag] and "=" not in dbt_args[i] else 1
            continue
        out.append(dbt_args[i])
        i += 1
    return out


def plan(project: Path, db: Path, dbt_args: list[str], all_nodes: bool = False, stale: bool = False) -> BuildPlan:
    """Decide what to run (module doc). ``dbt_args``: the extra arguments for ``dbt build``; ``all_nodes``: run
    every node whatever changed; ``stale``: cached tables made by other code were just dropped from the build file
    (evalhouse build), so every node runs."""
    state = current_state(project)
    dbt_args = scope_args(dbt_args)
    if dbt_args and dbt_args != ["--full-refresh"]:
        return BuildPlan(None, [], state, False,
                         f"dbt arguments given ({' '.join(dbt_args)}): dbt runs as asked, and the next build runs "
                         "every node")
    if all_nodes or dbt_args:
        return BuildPlan(None, [], state, True, "every node runs (asked for)")
    if stale:
        return BuildPlan(None, [], state, True, "every node runs: tables made by other code were dropped")
    saved = load(db)
    if saved is None:
        why = incomplete_reason(db) or "no complete build recorded in the build file (a first build)"
        return BuildPlan(None, [], state, True, f"every node runs: {why}")
    if saved.get("code") != state["code"]:
        return BuildPlan(None, [], state, True, "every node runs: the code changed since the last build")
    old, new = saved.get("sources") or {}, state["sources"]
    changed = sorted(name for name in set(old) | set(new) if new.get(name) is None or old.get(name) != new.get(name))
    if not changed:
        return BuildPlan([], [], state, False,
                         "nothing changed since the last build (code and every source): dbt not run")
    selectors = [f"source:{name}+" for name in changed]  # a source is added or removed only by a code change
    return BuildPlan(selectors, changed, state, True,
                     f"changed since the last build: {', '.join(changed)}; running them and what is downstream "
                     "(--all-nodes runs every node)")
