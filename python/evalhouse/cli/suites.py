"""Suite commands: `evalhouse suite init | check | land`."""
from __future__ import annotations

import contextlib
from collections import Counter

import typer

MAX_SHOWN = 50


def report(problems, echo=lambda s: typer.echo(s, err=True)) -> None:
    """Print problems as file:row:column: message; after the first 50, a summary with counts per kind. Each file's
    problems are shown together, its files in the order the check found them, and within a file by row (a problem
    of the whole file, row 0, first; the check's order within a row), so the list reads from the top of each file
    down."""
    first_seen: dict[str, int] = {}
    for p in problems:
        first_seen.setdefault(p.file, len(first_seen))
    problems = sorted(problems, key=lambda p: (first_seen[p.file], p.row))
    for p in problems[:MAX_SHOWN]:
        echo(f"error: {p}")
    if len(problems) > MAX_SHOWN:
        rest = Counter(p.message.split(" (")[0] if ":" not in p.message else p.column or "-"
                       for p in problems[MAX_SHOWN:])
        echo(f"... and {len(problems) - MAX_SHOWN} more problems:")
        for what, n in rest.most_common():
            echo(f"  {n} x {what}")


def register(app: typer.Typer) -> None:
    suite_app = typer.Typer(no_args_is_help=True,
                            help="Suites declared as folders under suites/ (see suites/README.md).")
    app.add_typer(suite_app, name="suite")

    @suite_app.command("init")
    def init(name: str = typer.Argument(..., help="Folder name: lower-case letters, digits, underscores"),
             title: str = typer.Option(None, help="Title (default: the name)")) -> None:
        """Create suites/NAME with a suite.yml to fill in and a README of the data files' columns."""
        from evalhouse.suites.land import suites_root
        from evalhouse.suites.scaffold import init_suite

        try:
            folder = init_suite(suites_root(), name, title)
        except (ValueError, FileExistsError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"created {folder}: fill in suite.yml, add items / responses / ratings files, then "
                   f"`evalhouse suite check {name}`")

    @suite_app.command("check")
    def check(names: list[str] = typer.Argument(None, help="Suites to check (default: all)")) -> None:
        """Validate suite folders (suite.yml, types, keys, references, rubric); exit 1 on any problem."""
        from evalhouse.suites.check import suite_notes
        from evalhouse.suites.land import check_all

        _enter_project_dir()  # problems name files as the build's landing does: suites/<suite>/<file>
        suites, problems = check_all(names=names or None)
        if problems:
            report(problems)
            raise typer.Exit(1)
        typer.echo(f"{len(suites)} suite(s) OK: {', '.join(s.name for s in suites)}")
        for note in (n for s in suites for n in suite_notes(s)):
            typer.echo(f"note: {note}")

    @suite_app.command("land")
    def land_cmd(in_build: bool = typer.Option(False, "--in-build", hidden=True,
                                               help="run by `evalhouse build`, which holds the build lock")) -> None:
        """Check every suite, then write the landing Parquet files dbt reads (nothing is written on a problem).
        Holds the build lock: a build running meanwhile would read a landing half written."""
        from contextlib import nullcontext

        from evalhouse import paths
        from evalhouse.suites.land import landing_dir, suites_fingerprint
        from evalhouse.warehouse.buildlock import BuildRunning, build_lock

        lock = nullcontext() if in_build else build_lock(paths.build_db().parent / "build.lock")
        try:
            with lock:
                _enter_project_dir()
                n_suites, counts = _check_and_land(suites_fingerprint())
        except BuildRunning as exc:
            typer.echo(f"error: {exc}; nothing landed", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"landed {n_suites} suite(s) in {landing_dir()}: "
                   + ", ".join(f"{k} {v}" for k, v in counts.items()))


def register_diff(app: typer.Typer) -> None:
    @app.command("warehouse-diff")
    def warehouse_diff(old: str = typer.Argument(..., help="Warehouse file before (DuckDB)"),
                       new: str = typer.Argument(..., help="Warehouse file after (DuckDB)"),
                       tol: float = typer.Option(1e-12, help="Float tolerance (absolute, or relative to the larger)"),
                       ) -> None:
        """Compare every fct_/dim_ table of two warehouse files row by row; exit 1 when any differs."""
        from evalhouse.warehouse.diff import diff_warehouses

        diffs = diff_warehouses(old, new, tol=tol)
        for d in diffs:
            extra = ""
            if d.only_old_columns or d.only_new_columns:
                extra = f" (columns removed: {d.only_old_columns or '-'}, added: {d.only_new_columns or '-'})"
            typer.echo(f"{'same' if d.identical else 'DIFF'}  {d.table}: {d.rows_old} -> {d.rows_new} rows{extra}")
            for msg in d.differences:
                typer.echo(f"      {msg}")
        n_bad = sum(not d.identical for d in diffs)
        typer.echo(f"{len(diffs) - n_bad} of {len(diffs)} marts identical")
        if n_bad:
            raise typer.Exit(1)


def register_build(app: typer.Typer) -> None:
    @app.command("build", context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
    def build(ctx: typer.Context,
              publish: bool = typer.Option(True, help="Publish the built warehouse when the build passes"),
              all_nodes: bool = typer.Option(False, "--all-nodes",
                                             help="Run every dbt node, even those whose code and inputs did not "
                                                  "change since the last build")) -> None:
        """Check and land every suite, run `dbt build` on what changed (extra arguments are passed on), then publish.

        When no file under suites/ (nor the checking code) changed since the last landing, the check and landing
        are skipped (warehouse/build/landing/_fingerprint.txt). dbt then runs only the dbt sources whose files
        changed since the last complete build and what is downstream of them; nothing when none did; every node
        after a code change, a failed build, with --all-nodes or with dbt arguments other than those that change only
        how dbt runs and reports, such as --threads (evalhouse.warehouse.build_state). The ratings store's files are
        checked first (a hand-copied file with other columns stops the build). A suite problem stops before dbt
        runs; a failed dbt build is not published. Either way the previously published warehouse stays as it was.
        One build at a time: while another runs, exit 1 at once saying so (lock on warehouse/build/build.lock,
        released by the system when its build ends)."""
        from evalhouse import paths
        from evalhouse.text.first_filter import text_workers
        from evalhouse.warehouse.buildlock import BuildRunning, build_lock
        from evalhouse.warehouse.settings import memory_limit

        try:
            text_workers()  # a bad EVALHOUSE_TEXT_WORKERS stops here, not halfway through dbt
            memory_limit()  # and a bad EVALHOUSE_MEMORY_LIMIT before dbt's on-run-start hook
            for variable, path in (("EVALHOUSE_DB", paths.build_db()), ("EVALHOUSE_PUBLISHED_DB",
                                                                         paths.published_db())):
                if path.name != "evalhouse.duckdb":  # views name their catalog: "evalhouse"."main"."int_ratings"
                    raise ValueError(f"{variable}={str(path)!r}: the file must be named evalhouse.duckdb (the "
                                     "warehouse's views name their database 'evalhouse'); choose another folder")
        except ValueError as exc:
            typer.echo(f"error: {exc}; nothing built or published", err=True)
            raise typer.Exit(2) from None
        from evalhouse.ratings.store import store_file_problems

        store_problems = store_file_problems()  # dbt reads every store file as one table: a stray file stops here
        if store_problems:
            for problem in store_problems:
                typer.echo(f"error: {problem}", err=True)
            typer.echo(f"error: {len(store_problems)} problem(s) in the ratings store's files; nothing built or "
                       "published", err=True)
            raise typer.Exit(1)  # a problem in the data, as a suite problem is
        try:
            with build_lock(paths.build_db().parent / "build.lock"):
                _build(ctx.args, publish, all_nodes)
        except BuildRunning as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None


def _enter_project_dir() -> None:
    """Make the project folder the current folder (for `suite land`): a landed ``source_file`` and each problem's file
    are then the path under the project, whichever folder the command was started from (from the project's parent,
    the landing named every file ``<project>/suites/...``, and the next build kept those names). The variables that
    name folders are made absolute first, so that they keep naming the same ones."""
    import os

    from evalhouse import paths
    from evalhouse.suites.land import landing_dir

    if os.environ.get("EVALHOUSE_LANDING_DIR"):
        os.environ["EVALHOUSE_LANDING_DIR"] = str(landing_dir())
    project = paths.project_dir()
    os.environ["EVALHOUSE_PROJECT_DIR"] = str(project)
    os.chdir(project)


def _check_and_land(fingerprint: str) -> tuple[int, dict[str, int]]:
    """Check every suite; on any problem report them all and exit 1 with nothing landed; else land them with the
    fingerprint taken before the check. Returns (suites landed, rows per landed table)."""
    from evalhouse.suites.land import check_all, land

    suites, problems = check_all()
    if problems:
        report(problems)
        typer.echo("error: suite check failed; nothing built or published (the published warehouse is "
                   "unchanged)", err=True)
        raise typer.Exit(1)
    return len(suites), land(suites, fingerprint=fingerprint)


# The incremental rating chain (macros/rating_chain.sql) and its bookkeeping tables. When the code of any of them, of
# a macro or of the statistics library its Python models call (evalhouse.stats) changed since the tables were made,
# they are dropped and rebuilt whole (a stored table may have other columns, or rows computed by other logic); the
# sha256 of that code is kept in _rating_chain_code.
RATING_CHAIN_MODELS = ("int_rating_groups", "int_rating_changes", "int_ratings", "fct_ratings", "int_effective_scores",
                       "int_reply_scores", "int_rater_pair_scores", "int_reliability_scores", "int_reliability_units",
                       "fct_criterion_scores", "fct_reply_scores", "fct_stale_ratings", "fct_word_search_vs_human",
                       "int_reliability_cells",
                       "fct_judge_human_agreement", "fct_judge_diagnostics", "fct_system_rankings",
                       "int_reliability_unit_patterns", "fct_interrater_reliability", "fct_coder_set_alpha")
# Chain tables an older evalhouse made and the current code no longer has (int_latest_ratings: now a CTE of
# int_effective_scores): dropped with the chain, so a warehouse built before does not keep them.
RETIRED_CHAIN_TABLES = ("int_latest_ratings",)


def rating_chain_code_hash() -> str:
    """sha256 of the rating chain models' code (SQL and Python), of every macro file and of the evalhouse.stats
    package's source (the chain's Python models compute with it)."""
    import hashlib
    from pathlib import Path

    import evalhouse.stats
    from evalhouse import paths

    root = paths.project_dir()
    files = sorted(p for p in (root / "models").rglob("*")
                   if p.suffix in (".sql", ".py") and p.stem in RATING_CHAIN_MODELS)
    files += sorted((root / "macros").glob("*.sql"))
    stats = Path(evalhouse.stats.__file__).resolve().parent
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for path in sorted(stats.rglob("*.py")):
        digest.update(b"evalhouse/stats/" + path.relative_to(stats).as_posix().encode() + b"\0" + path.read_bytes()
                      + b"\0")
    return digest.hexdigest()


# Copies of one landed file kept while it is the same (macros/landed_copy.sql): YAML file of their contract
LANDED_COPIES = {"int_responses": "models/intermediate/_intermediate__models.yml",
                 "int_gold": "models/intermediate/_intermediate__models.yml"}


def _contract_columns(model: str) -> list[str]:
    """The column names of ``model``'s contract, in order, from its YAML file (LANDED_COPIES)."""
    import yaml

    from evalhouse import paths

    spec = yaml.safe_load((paths.project_dir() / LANDED_COPIES[model]).read_text(encoding="utf-8"))
    return [c["name"] for m in spec.get("models", []) if m.get("name") == model for c in m.get("columns", [])]


def _stale_caches(db) -> list[tuple[str, str, str]]:
    """The incremental caches that another version of the code made, as (relation, "table" | "view", why): rebuilding
    them incrementally would fail on a schema change or keep rows of other logic. int_text_checks and
    int_phrase_checks when their columns differ; the landed copies (LANDED_COPIES) when their columns are not their
    contract's; the rating chain's tables when the chain's code recorded beside
    them (_rating_chain_code, written by _record_chain_code after each passing build) is not the current code, or is
    missing. The caches hold nothing that is not recomputed from the inputs."""
    import duckdb

    from evalhouse.text.first_filter import PHRASE_CHECK_COLUMNS, TEXT_CHECK_COLUMNS

    if not db.is_file():
        return []
    stale = []
    with duckdb.connect(str(db), read_only=True) as con:
        expected = {"int_text_checks": TEXT_CHECK_COLUMNS, "int_phrase_checks": PHRASE_CHECK_COLUMNS,
                    **{table: _contract_columns(table) for table in LANDED_COPIES}}
        for table, columns in expected.items():
            cols = [r[0] for r in con.execute(
                "select column_name from information_schema.columns where table_name = ? "
                "order by ordinal_position", [table]).fetchall()]
            if cols and cols != columns:
                stale.append((table, "table", f"{table} was made by an older evalhouse (other columns)"))
        # the ratings store read file by file (macros/source_files.sql) needs each row's file hash (a view, as
        # older versions made it, is replaced by dbt itself)
        cols = {r[0] for r in con.execute(
            "select c.column_name from information_schema.columns as c join information_schema.tables as t "
            "using (table_catalog, table_schema, table_name) where c.table_name = 'base_ratings_store__ratings' "
            "and t.table_type = 'BASE TABLE'").fetchall()}
        if cols and "file_hash" not in cols:
            stale.append(("base_ratings_store__ratings", "table",
                          "base_ratings_store__ratings was made by an older evalhouse (no file hashes)"))
        tables = dict(con.execute("select table_name, table_type from information_schema.tables "
                                  "where table_catalog = current_database()").fetchall())
        stored = (con.execute("select code_sha256 from _rating_chain_code").fetchone() or [None])[0] \
            if "_rating_chain_code" in tables else None
        if stored != rating_chain_code_hash():
            for table in (*RATING_CHAIN_MODELS, *RETIRED_CHAIN_TABLES, "_rating_chain_state"):
                if table in tables:  # fct_ratings and fct_criterion_scores are views of the chain's tables
                    stale.append((table, "view" if tables[table] == "VIEW" else "table",
                                  "the rating chain's code changed since its tables were made"))
    return stale


def _drop_stale_caches(db, stale: list[tuple[str, str, str]]) -> bool:
    """Drop the caches _stale_caches found, so dbt rebuilds them whole; says why. Returns whether anything was
    dropped: the build must then run every node, whatever else changed."""
    import duckdb

    if not stale:
        return False
    with duckdb.connect(str(db)) as con:
        for relation, kind, _ in stale:
            con.execute(f'drop {kind} if exists "{relation}"')
    for why in dict.fromkeys(why for _, _, why in stale):
        typer.echo(f"{why}: rebuilt whole")
    return True


def _record_chain_code(con) -> None:
    """After a passing build: the rating chain's tables (if any) were made by the current code (``con``: the build
    file, open)."""
    con.execute("create or replace table _rating_chain_code as select ? as code_sha256", [rating_chain_code_hash()])


def _die_with_parent() -> None:
    """In the child, before exec (Linux): SIGTERM when the process that started it ends, however it ends (a SIGKILL
    of `evalhouse build` cannot be passed on). Elsewhere nothing."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _run_forwarding_stop(cmd: list[str], **kwargs) -> int:
    """Run cmd and wait for it, so a stopped `evalhouse build` does not leave dbt running with the build file
    locked: a SIGTERM or SIGINT to this process stops cmd with SIGTERM (a SIGINT could be ignored: a shell script
    starts background jobs with SIGINT ignored, and cmd inherits that), and cmd gets SIGTERM when this process dies
    on Linux (_die_with_parent). Returns cmd's exit status, or 128 + N when signal N stopped this process (130 for
    Ctrl-C, 143 for SIGTERM)."""
    import signal
    import subprocess
    import sys

    stopped_by: list[int] = []
    proc = subprocess.Popen(cmd, preexec_fn=_die_with_parent if sys.platform == "linux" else None, **kwargs)

    def forward(signum, _frame):
        stopped_by.append(signum)
        proc.send_signal(signal.SIGTERM)

    previous = {sig: signal.signal(sig, forward) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        returncode = proc.wait()
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    if stopped_by:
        return 128 + stopped_by[0]
    return 128 - returncode if returncode < 0 else returncode


def _show_failing_rows(run_results, db, limit: int = 5, status: str = "fail") -> None:
    """After a dbt build: the first ``limit`` rows each data test of ``status`` returns ('fail' after a failed build,
    'warn' for the tests of severity warn after a build that passed; its compiled query from dbt's
    run_results.json, run again read-only on the build file), so the message names the suite, rater, file or key at
    fault and not only a count. When a test returns more rows, it says where its compiled query is (dbt's
    manifest.json), to be run for every row. Says nothing when the results or the file cannot be read (dbt's own
    report above still stands)."""
    import json

    import duckdb

    try:
        results = json.loads(run_results.read_text())["results"]
        failed = [r for r in results if r.get("status") == status and r["unique_id"].startswith("test.")
                  and r.get("compiled_code")]
        if not failed:
            return
        kind = "failing" if status == "fail" else "warning"
        nodes = _manifest_nodes(run_results.with_name("manifest.json"))
        incremental = _incremental_models_tested(nodes, failed)
        with duckdb.connect(str(db), read_only=True) as con:
            for r in failed:
                cur = con.execute(f"select * from (\n{r['compiled_code']}\n) as failing limit {limit + 1}")
                names = [d[0] for d in cur.description]
                rows = cur.fetchall()
                more = f"the first {limit} of {r.get('failures')}" if len(rows) > limit else "its"
                compiled = nodes.get(r["unique_id"], {}).get("compiled_path")  # relative to the project folder
                where = (f" (every row: the query in {run_results.parents[1] / compiled}, run on {db} opened "
                         "read-only)"
                         if len(rows) > limit and compiled else "")
                typer.echo(f"{r['unique_id'].split('.')[2]}: {more} {kind} rows{where}:", err=True)
                for row in rows[:limit]:
                    typer.echo("  " + "; ".join(f"{n}={v}" for n, v in zip(names, row, strict=True)), err=True)
                model = incremental.get(r["unique_id"])
                if model and status == "fail":
                    typer.echo(f"  (if no input explains these rows, e.g. after a hand edit of the build file: {model} "
                               "is incremental and a build recomputes only the rows whose inputs changed, so they "
                               f"stay until `evalhouse build --full-refresh -s {model}` recomputes it)", err=True)
    except (OSError, ValueError, KeyError, duckdb.Error):
        return


def _manifest_nodes(manifest) -> dict:
    """The nodes of dbt's manifest.json by unique_id; empty when it cannot be read."""
    import json

    try:
        return json.loads(manifest.read_text())["nodes"]
    except (OSError, ValueError, KeyError):
        return {}


def _incremental_models_tested(nodes: dict, tests: list[dict]) -> dict[str, str]:
    """{test unique_id: name of the incremental model it tests} for those of ``tests`` (run_results entries) that
    test one, from the manifest's ``nodes``."""
    out = {}
    for r in tests:
        attached = nodes.get(nodes.get(r["unique_id"], {}).get("attached_node") or "", {})
        if attached.get("config", {}).get("materialized") == "incremental":
            out[r["unique_id"]] = attached["name"]
    return out


def _dbt_env() -> dict[str, str]:
    """The environment dbt runs in (its parse and its build: the same, so that the build reuses the parse). dbt runs
    in the project folder: a relative path given from elsewhere is passed on as the absolute path the landing and
    the publish use (resolved against the folder the command was run from)."""
    import os

    from evalhouse import paths
    from evalhouse.suites.land import landing_dir

    env = dict(os.environ, DBT_PROFILES_DIR=os.environ.get("DBT_PROFILES_DIR", str(paths.project_dir())),
               EVALHOUSE_PROJECT_DIR=str(paths.project_dir()), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    for variable, path in (("EVALHOUSE_DB", paths.build_db), ("EVALHOUSE_LANDING_DIR", landing_dir)):
        if os.environ.get(variable):
            env[variable] = str(path())
    return env


# dbt build arguments that change what dbt parses (`dbt parse` takes them too), with whether each takes a value
PARSE_ARGS = {"--vars": True, "--target": True, "-t": True, "--profile": True, "--profiles-dir": True,
              "--project-dir": True, "--target-path": True}


def _parse_args(dbt_args: list[str]) -> list[str]:
    """The arguments among ``dbt_args`` that `dbt parse` must be given for `dbt build` to reuse its parse
    (PARSE_ARGS, as ``--vars '{...}'`` or ``--vars={...}``)."""
    out, i = [], 0
    while i < len(dbt_args):
        flag = dbt_args[i].split("=", 1)[0]
        if flag in PARSE_ARGS:
            takes = PARSE_ARGS[flag] and "=" not in dbt_args[i]
            out += dbt_args[i:i + (2 if takes else 1)]
            i += 2 if takes else 1
        else:
            i += 1
    return out


@contextlib.contextmanager
def _parse_beside(cmd: list[str], env: dict[str, str]):
    """Run `dbt parse` (``cmd``) in the background while the block runs (the suites' check and landing), then wait
    for it. dbt writes its parse to target/partial_parse.msgpack, and the `dbt build` after it reads that instead of
    parsing the project again when nothing it depends on changed (dbt's partial parsing; it parses again itself
    otherwise, so this can only save time): a first build, or the first after a code change, parses the whole
    project (about 5 s on this machine), as long as the bundled suites' landing. Its output is dropped (the build
    reports any parse error); it reads no data and does not open the warehouse file. When the block raises (a
    suite problem, a stop), the parse is stopped."""
    import subprocess
    import sys

    from evalhouse import paths

    proc = subprocess.Popen(cmd, cwd=paths.project_dir(), env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=_die_with_parent if sys.platform == "linux" else None)
    try:
        yield
    except BaseException:
        proc.terminate()
        raise
    finally:
        proc.wait()


def _build(dbt_args: list[str], publish: bool, all_nodes: bool = False) -> None:
    import os
    import sys
    from pathlib import Path

    from evalhouse import paths
    from evalhouse.suites.land import landing_is_current, suites_fingerprint
    from evalhouse.warehouse import build_state
    from evalhouse.warehouse.published import publish as do_publish

    env = _dbt_env()
    dbt = Path(sys.executable).with_name("dbt")
    fingerprint = suites_fingerprint()
    if landing_is_current(fingerprint):
        typer.echo("suites unchanged since they were last checked and landed: check and landing skipped")
    else:
        # `evalhouse suite land` in a process of its own: Python keeps the memory a large check and landing used
        # after they end (2.7 GB at a million replies), and dbt's build ran beside it. It reports any problem itself.
        # -P: the folder the build was started from is not searched first (a folder named evalhouse there would be
        # imported instead). dbt parses the project meanwhile, on the other core (_parse_beside).
        with _parse_beside([str(dbt), "parse", "--no-use-colors", *_parse_args(dbt_args)], env):
            code = _run_forwarding_stop([sys.executable, "-P", "-m", "evalhouse", "suite", "land", "--in-build"])
            if code > 128:  # the fingerprint is written last: the next build checks and lands again
                typer.echo(f"error: stopped while checking and landing the suites (signal {code - 128}: a stop, or "
                           "the system ending it, e.g. out of memory); nothing built or published (the published "
                           "warehouse is unchanged; the next build lands the suites again)", err=True)
                raise typer.Exit(code)
            if code != 0:
                raise typer.Exit(code)
    paths.build_db().parent.mkdir(parents=True, exist_ok=True)
    stale_caches = _stale_caches(paths.build_db())
    if stale_caches and build_state.scope_args(dbt_args) not in ([], ["--full-refresh"]):
        # dropping them and running only what was asked for would leave the marts built on them missing
        why = "; ".join(dict.fromkeys(why for _, _, why in stale_caches))
        typer.echo(f"error: {why}, so every node must run once: run `evalhouse build` (or with --full-refresh) "
                   f"first, then again with {' '.join(dbt_args)}; nothing built or published", err=True)
        raise typer.Exit(2)
    stale = _drop_stale_caches(paths.build_db(), stale_caches)
    todo = build_state.plan(paths.project_dir(), paths.build_db(), dbt_args, all_nodes, stale=stale)
    typer.echo(todo.reason)
    if todo.selectors == []:
        published = paths.published_db()
        if publish and (not published.is_file() or published.stat().st_mtime < paths.build_db().stat().st_mtime):
            typer.echo(f"published {do_publish(paths.build_db(), paths.published_db())}")
        return
    build_state.clear(paths.build_db())  # a build that does not pass leaves the next one to run every node
    # The unit tests are left out: they read given rows, not data, so they test the code, not this build's inputs;
    # `make test` runs them (`make unit-tests`), as dbt's docs advise (unit tests in development and CI, not in
    # production builds). About 6 s of the bundled build's 31 s.
    select = ["--select", *todo.selectors] if todo.selectors else []
    returncode = _run_forwarding_stop([str(dbt), "build", "--no-use-colors", *select,
                                       "--exclude-resource-type", "unit_test", *dbt_args],
                                      cwd=paths.project_dir(), env=env)
    if returncode > 128:
        typer.echo(f"error: the build was stopped (signal {returncode - 128}); nothing published (the published "
                   "warehouse is unchanged; the next build runs every node)", err=True)
        raise typer.Exit(returncode)
    if returncode != 0:
        _show_failing_rows(paths.project_dir() / "target" / "run_results.json", paths.build_db())
        typer.echo("error: dbt build failed; nothing published (the published warehouse is unchanged)", err=True)
        limit = os.environ.get("EVALHOUSE_MEMORY_LIMIT", "").strip()
        if limit:
            typer.echo(f"note: EVALHOUSE_MEMORY_LIMIT={limit!r} capped DuckDB's memory for this build: an 'Out of "
                       "Memory Error' above means the cap is too small for it; raise it or unset the variable",
                       err=True)
        raise typer.Exit(returncode)
    _show_failing_rows(paths.project_dir() / "target" / "run_results.json", paths.build_db(), status="warn")
    import duckdb

    with duckdb.connect(str(paths.build_db())) as con:  # one connection, one commit: both records or neither
        con.execute("begin")
        _record_chain_code(con)
        build_state.save(paths.build_db(), todo.state if todo.save else {
            "incomplete": f"the last build ran with dbt arguments ({' '.join(dbt_args)}), so not every node is "
                          "current"}, con)
        con.execute("commit")
    if publish:
        typer.echo(f"published {do_publish(paths.build_db(), paths.published_db())}")
