"""`evalhouse build` runs what changed (evalhouse.warehouse.build_state).

Unit tests on a small made-up project: how each source's path is resolved (``{var:..}``, ``{landing}``,
``{{ var(..) }}``, ``env_var`` in a var), which sources a file change marks, and the plan (every node, nothing, or
the changed sources and what is downstream). Then, in a built copy of the project: a build file whose rating chain
has no record of its code drops the chain and runs every node (and records the code); a second build with nothing
changed does not start dbt; a second reader's rating in the ratings store runs only what is downstream of the ratings store,
and every table it leaves equals a ``--full-refresh`` build of every node; dbt arguments leave the next build to
run every node.
"""
from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from conftest import copy_project

from evalhouse.cli.suites import rating_chain_code_hash
from evalhouse.warehouse import build_state

BIN = Path(sys.executable).parent
REPO = Path(__file__).resolve().parents[2]


def _fake_project(root: Path) -> Path:
    (root / "models" / "staging").mkdir(parents=True)
    (root / "dbt_project.yml").write_text(
        "name: fake\nvars:\n"
        "  landing_dir: \"{{ env_var('FAKE_LANDING', 'land') }}\"\n"
        "  store_glob: 'store/*/*.csv'\n"
        "  packs_dir: packs\n")
    (root / "models" / "staging" / "_fake__sources.yml").write_text(
        "version: 2\nsources:\n"
        "  - name: s\n    tables:\n"
        "      - name: landed\n        meta: {path: '{landing}/t.parquet'}\n"
        "      - name: store\n        meta:\n          path: '{var:store_glob}'\n"
        "      - name: packs\n        meta: {path: \"{{ var('packs_dir') }}/*/p.csv\"}\n"
        "      - name: unknown\n        meta: {path: '{var:not_a_var}/x.csv'}\n")
    (root / "models" / "m.sql").write_text("select 1 as x\n")
    for rel, text in (("land/t.parquet", "t"), ("store/a/1.csv", "1"), ("packs/p1/p.csv", "p")):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root


def test_source_paths_resolve_vars_as_read_source_does(tmp_path, monkeypatch):
    root = _fake_project(tmp_path)
    monkeypatch.delenv("FAKE_LANDING", raising=False)
    assert build_state.source_paths(root) == {"s.landed": "land/t.parquet", "s.store": "store/*/*.csv",
                                              "s.packs": "packs/*/p.csv", "s.unknown": None}
    monkeypatch.setenv("FAKE_LANDING", "/elsewhere/landing")
    assert build_state.source_paths(root)["s.landed"] == "/elsewhere/landing/t.parquet"


def test_every_source_of_the_project_resolves_to_files():
    """No source of this project is 'changed on every build' for want of a resolvable path."""
    paths = build_state.source_paths(REPO)
    assert len(paths) == 38 and None not in paths.values(), paths
    for name, path in paths.items():
        if not name.startswith("suites."):  # the landing files exist once a build ran
            assert build_state._files_of(REPO, path), name


def test_a_file_change_marks_the_sources_that_can_read_it(tmp_path, monkeypatch):
    monkeypatch.delenv("FAKE_LANDING", raising=False)
    root = _fake_project(tmp_path)
    before = build_state.source_fingerprints(root)
    assert before["s.unknown"] is None and len(set(before.values())) == 4
    (root / "store" / "b").mkdir()
    (root / "store" / "b" / "2.csv").write_text("2")  # a new file under the glob's folder
    after = build_state.source_fingerprints(root)
    assert [k for k in before if before[k] != after[k]] == ["s.store"]
    (root / "packs" / "p1" / "p.csv").write_text("p changed")
    again = build_state.source_fingerprints(root)
    assert [k for k in after if after[k] != again[k]] == ["s.packs"]
    (root / "store" / "b" / "2.csv").unlink()
    assert build_state.source_fingerprints(root)["s.store"] == before["s.store"]  # content, not file times
    # a file no glob of the source can match changes nothing; one it could match in another case, hidden or
    # deeper down does (more than DuckDB reads: the plan may run too much, never too little)
    (root / "store" / "a" / "notes.txt").write_text("n")
    (root / "store" / "README.md").write_text("r")
    assert build_state.source_fingerprints(root) == {**again, "s.store": before["s.store"]}
    for extra in ("store/a/3.CSV", "store/a/.4.csv", "store/a/deep/5.csv"):
        (root / extra).parent.mkdir(parents=True, exist_ok=True)
        (root / extra).write_text("x")
        assert build_state.source_fingerprints(root)["s.store"] != before["s.store"], extra
        (root / extra).unlink()
    assert build_state.source_fingerprints(root)["s.store"] == before["s.store"]
    # a folder linked into the glob's folder is followed, as DuckDB's glob follows it
    outside = tmp_path.parent / (tmp_path.name + "_linked")
    outside.mkdir()
    (outside / "3.csv").write_text("3")
    (root / "store" / "linked").symlink_to(outside, target_is_directory=True)
    linked = build_state.source_fingerprints(root)["s.store"]
    assert linked != before["s.store"]
    (outside / "3.csv").write_text("3 edited")
    assert build_state.source_fingerprints(root)["s.store"] != linked
    (root / "store" / "linked").unlink()
    # a copy of the project has the same state: files are named relative to it
    copy = shutil.copytree(root, tmp_path.parent / (tmp_path.name + "_copy"))
    assert build_state.source_fingerprints(Path(copy)) == build_state.source_fingerprints(root)


def test_the_plan(tmp_path, monkeypatch):
    monkeypatch.delenv("FAKE_LANDING", raising=False)
    root = _fake_project(tmp_path / "p")
    db = tmp_path / "build.duckdb"
    first = build_state.plan(root, db, [])
    assert (first.selectors, first.save) == (None, True) and "no complete build" in first.reason
    duckdb.connect(str(db)).close()
    build_state.save(db, first.state)
    same = build_state.plan(root, db, [])
    # s.unknown cannot be resolved: it counts as changed every time
    assert (same.selectors, same.changed) == (["source:s.unknown+"], ["s.unknown"])
    (root / "models" / "staging" / "_fake__sources.yml").write_text(
        (root / "models" / "staging" / "_fake__sources.yml").read_text().replace(
            "      - name: unknown\n        meta: {path: '{var:not_a_var}/x.csv'}\n", ""))
    code = build_state.plan(root, db, [])
    assert code.selectors is None and "code changed" in code.reason
    build_state.save(db, code.state)
    assert build_state.plan(root, db, []).selectors == []
    (root / "store" / "a" / "1.csv").write_text("re-rated")
    changed = build_state.plan(root, db, [])
    assert (changed.selectors, changed.changed, changed.save) == (["source:s.store+"], ["s.store"], True)
    stale = build_state.plan(root, db, [], stale=True)
    assert (stale.selectors, stale.save) == (None, True) and "made by other code" in stale.reason
    asked = build_state.plan(root, db, [], all_nodes=True)
    assert (asked.selectors, asked.save) == (None, True)
    refresh = build_state.plan(root, db, ["--full-refresh"])
    assert (refresh.selectors, refresh.save) == (None, True)
    other = build_state.plan(root, db, ["--select", "m"])
    assert (other.selectors, other.save) == (None, False) and "dbt arguments given" in other.reason
    # arguments that change only how dbt runs and reports plan as none do, and the build is recorded
    output_only = build_state.plan(root, db, ["--threads", "1", "-q", "--log-level=warn", "--fail-fast"])
    assert (output_only.selectors, output_only.save) == (["source:s.store+"], True)
    refresh_quiet = build_state.plan(root, db, ["--full-refresh", "--threads=2"])
    assert (refresh_quiet.selectors, refresh_quiet.save) == (None, True)
    narrowed = build_state.plan(root, db, ["--threads", "1", "--select", "m"])
    assert (narrowed.selectors, narrowed.save) == (None, False) and "--select m" in narrowed.reason
    assert build_state.scope_args(["--threads", "1", "-s", "m", "-x"]) == ["-s", "m"]
    # the log file's level, as the README advises for a run's queries (a trial found it ran every node twice)
    assert build_state.scope_args(["--log-level-file", "debug", "--log-format-file=json", "--log-path", "l",
                                   "-s", "m"]) == ["-s", "m"]
    logged = build_state.plan(root, db, ["--log-level-file", "debug"])
    assert (logged.selectors, logged.save) == (["source:s.store+"], True)
    (root / "models" / "m.sql").write_text("select 2 as x\n")
    assert build_state.plan(root, db, []).selectors is None
    build_state.clear(db)
    assert build_state.load(db) is None and build_state.plan(root, db, []).selectors is None
    assert build_state.plan(root, db, []).reason == \
        "every node runs: the last build did not finish (it failed or was stopped)"
    build_state.clear(db, "the last build ran with dbt arguments (--select m), so not every node is current")
    assert build_state.plan(root, db, []).reason == \
        "every node runs: the last build ran with dbt arguments (--select m), so not every node is current"


# ---- a built copy of the project ----

@pytest.fixture(scope="module")
def project(tmp_path_factory):
    dst = copy_project(tmp_path_factory.mktemp("selective") / "evalhouse", built=True)
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for name in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(name, None)

    def run(*args: str) -> str:
        res = subprocess.run([str(BIN / "evalhouse"), "build", "--no-publish", *args], cwd=dst, env=env,
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]
        return res.stdout

    # a build file whose rating chain tables have no record of the code that made them (as a first build into an
    # empty folder left them before _record_chain_code): they are dropped, and so every node runs, whatever the
    # recorded state says; after the build the chain's code is recorded
    # and a ratings store table as an older evalhouse made it (no file hashes): dropped too, read whole again
    with duckdb.connect(str(_db(dst))) as con:
        con.execute("drop table if exists _rating_chain_code")
        con.execute("alter table base_ratings_store__ratings drop column file_hash")
    out = run()
    assert "the rating chain's code changed since its tables were made: rebuilt whole" in out, out
    assert "base_ratings_store__ratings was made by an older evalhouse (no file hashes): rebuilt whole" in out, out
    assert "every node runs: tables made by other code were dropped" in out, out
    # every node, but no unit test: they read given rows, not data (`make unit-tests` runs them)
    kinds = {r["unique_id"].split(".")[0] for r in
             json.loads((dst / "target" / "run_results.json").read_text())["results"]}
    assert {"model", "test", "seed"} <= kinds and "unit_test" not in kinds, kinds
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        assert con.execute("select code_sha256 from _rating_chain_code").fetchall() == [(rating_chain_code_hash(),)]
        assert con.execute("select count(*) from int_effective_scores").fetchone()[0] > 0
        assert con.execute("select count(*), count(file_hash) from base_ratings_store__ratings").fetchone() == (7, 7)
    return dst, run


def _db(dst: Path) -> Path:
    return dst / "warehouse" / "build" / "evalhouse.duckdb"


def _ran(dst: Path) -> set[str]:
    results = json.loads((dst / "target" / "run_results.json").read_text())["results"]
    return {r["unique_id"] for r in results if r["unique_id"].startswith("model.")}


def test_nothing_changed_nothing_runs(project):
    dst, run = project
    out = run()
    assert "nothing changed since the last build" in out and "Running with dbt" not in out, out
    # a suite file no table is read from: the suites are landed again, into the same bytes, and nothing runs
    readme = dst / "suites" / "example_qa" / "README.md"
    text = readme.read_text()
    readme.write_text(text + "\nA note.\n")
    out = run()
    assert "landed 8 suite(s)" in out and "nothing changed since the last build" in out, out
    readme.write_text(text)
    run()


def test_a_new_ratings_file_runs_what_is_downstream_and_equals_a_full_rebuild(project):
    dst, run = project
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        rid, crit, ver, score = con.execute(
            "select response_id, criterion, rubric_version, score from int_effective_scores "
            "where rating_id is not null and not carried_forward and suite = 'larkfield' and rater_id = 'course_team' order by all limit 1").fetchone()
    header = ["suite", "response_id", "packet_id", "letter", "rater_id", "rater_kind", "criterion", "score",
              "reason", "rubric_id", "rubric_version", "is_blind", "rated_at", "store_row"]
    # a second reader (the course team's own ratings are checked by the lesson's data tests)
    with (dst / "data" / "ratings" / "larkfield" / "20270101T000000Z_second_reader.csv").open(
            "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=header)
        w.writeheader()
        w.writerow({"suite": "larkfield", "response_id": rid, "packet_id": "", "letter": "",
                    "rater_id": "second_reader", "rater_kind": "human", "criterion": crit, "score": (score + 1) % 3,
                    "reason": "re-rated", "rubric_id": "larkfield_support", "rubric_version": ver, "is_blind": "",
                    "rated_at": "2027-01-01T00:00:00", "store_row": 1})
    out = run()
    assert "changed since the last build: ratings_store.ratings;" in out, out
    results = json.loads((dst / "target" / "run_results.json").read_text())["results"]
    kinds = {r["unique_id"].split(".")[0] for r in results}
    assert "test" in kinds and "unit_test" not in kinds, kinds  # data tests run, unit tests never do
    ran = _ran(dst)
    assert {"model.evalhouse.int_ratings", "model.evalhouse.fct_reply_scores",
            "model.evalhouse.fct_two_reader_agreement"} <= ran
    assert not ran & {"model.evalhouse.int_first_filter", "model.evalhouse.int_responses",
                      "model.evalhouse.int_text_checks", "model.evalhouse.int_decisions__attempts"}, ran
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        assert con.execute("select score, reason from int_effective_scores where rating_id is not null "
                           "and not carried_forward and response_id = ? and criterion = ? "
                           "and rater_id = 'second_reader' and rubric_version = ?", [rid, crit, ver]).fetchall() \
            == [((score + 1) % 3, "re-rated")]
    selective = dst / "selective" / "evalhouse.duckdb"  # the catalog name the views were made in
    selective.parent.mkdir()
    shutil.copy2(_db(dst), selective)
    out = run("--full-refresh")
    assert "every node runs (asked for)" in out
    manifest = json.loads((dst / "target" / "manifest.json").read_text())
    assert _ran(dst) == {k for k, v in manifest["nodes"].items() if v["resource_type"] == "model"}
    differing = []
    with duckdb.connect() as con:
        con.execute(f"attach '{selective}' as sel (read_only)")
        con.execute(f"attach '{_db(dst)}' as full_build (read_only)")
        tables = [r[0] for r in con.execute(
            "select table_name from duckdb_tables() where database_name = 'full_build' and schema_name = 'main' "
            "and table_name not like '\\_%' escape '\\' and table_name not like '%__dbt_tmp%'").fetchall()]
        assert len(tables) > 100
        for t in tables:
            n = con.execute(f"select (select count(*) from (select * from sel.main.{t} except all "
                            f"select * from full_build.main.{t})) + (select count(*) from (select * from "
                            f"full_build.main.{t} except all select * from sel.main.{t}))").fetchone()[0]
            if n:
                differing.append(t)
    if differing:  # floats summed in another order: equal within 1e-12, as bench/compare_builds.py compares
        res = subprocess.run([sys.executable, str(REPO / "bench" / "compare_builds.py"), str(selective),
                              str(_db(dst)), "--also", *differing], capture_output=True, text=True)
        assert res.returncode == 0, res.stdout[-4000:]
    # the state saved by the --full-refresh build: the next build has nothing to do
    assert "nothing changed" in run()


def _build_with_a_hand_copied_store_file(dst: Path, name: str, text: str) -> tuple[subprocess.CompletedProcess,
                                                                                     list[str]]:
    """`evalhouse build --no-publish` with ``text`` copied by hand into larkfield's store folder as ``name`` (removed
    after): the run and its failed tests' lines."""
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for variable in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(variable, None)
    hand = dst / "data" / "ratings" / "larkfield" / name
    hand.write_text(text)
    try:
        res = subprocess.run([str(BIN / "evalhouse"), "build", "--no-publish"], cwd=dst, env=env,
                             capture_output=True, text=True)
    finally:
        hand.unlink()
    failed = [line.split("  ", 1)[1] for line in res.stdout.splitlines()
              if "Failure in test" in line or "Error in test" in line]
    return res, failed


def _first_response(dst: Path, suite: str) -> str:
    """The suite's first response id in the copied build."""
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        return con.execute("select min(response_id) from int_responses where suite = ?", [suite]).fetchone()[0]


def test_a_rater_with_two_kinds_stops_the_build_at_its_own_test(project):
    """A store file copied in by hand (import-ratings would refuse it) that makes the course team a judge: the build
    fails at assert_one_kind_per_rater, which names the rater, its kinds and files, before the rating marts (whose
    grain tests used to be the first to fail). The next test's build runs every node anyway."""
    dst, _ = project
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        rid, crit, ver = con.execute(
            "select response_id, criterion, rubric_version from int_effective_scores where suite = 'larkfield' "
            "and rater_id = 'course_team' and rating_id is not null order by all limit 1").fetchone()
    res, failed = _build_with_a_hand_copied_store_file(
        dst, "20270102T000000Z_by_hand.csv",
        "suite,response_id,rater_id,rater_kind,criterion,score,rubric_id,rubric_version,rated_at\n"
        f"larkfield,{rid},course_team,judge,{crit},1,larkfield_support,{ver},2027-01-02T00:00:00\n")
    assert res.returncode != 0
    assert "Failure in test assert_one_kind_per_rater" in res.stdout, res.stdout[-4000:]
    assert failed == ["Failure in test assert_one_kind_per_rater (tests/core/assert_one_kind_per_rater.sql)"], \
        res.stdout[-4000:]
    assert re.search(r"SKIP relation main\.int_effective_scores \.", res.stdout), res.stdout[-4000:]
    # and the rows the test returned, so the failure names the rater and the files without opening the warehouse
    assert "assert_one_kind_per_rater: its failing rows:\n  suite=larkfield; rater_id=course_team; n_kinds=2; " \
           "kinds=human in data/ratings/larkfield/20260105T000000Z_course_team_lesson_figure.csv; judge in " \
           "data/ratings/larkfield/20270102T000000Z_by_hand.csv\n" in res.stderr, res.stderr[-4000:]


def test_a_store_rating_of_another_suites_response_stops_the_build(project):
    """A store file copied by hand into larkfield's folder, its suite column larkfield (so the check before dbt
    passes), rating a HANNA response: the build fails at assert_store_ratings_in_their_response_suite, which names
    the file, row and both suites, instead of changing HANNA's marts under larkfield's name."""
    dst, _ = project
    rid = _first_response(dst, "hanna")
    res, failed = _build_with_a_hand_copied_store_file(
        dst, "20270103T000000Z_by_hand.csv",
        "suite,response_id,rater_id,rater_kind,criterion,score,rubric_id,rubric_version,rated_at,store_row\n"
        f"larkfield,{rid},hand,human,correctness,1,larkfield_support,2,2027-01-03T00:00:00,1\n")
    assert res.returncode != 0
    assert failed == ["Failure in test assert_store_ratings_in_their_response_suite "
                      "(tests/core/assert_store_ratings_in_their_response_suite.sql)"], res.stdout[-4000:]
    assert ("assert_store_ratings_in_their_response_suite: its failing rows:\n  source_file=data/ratings/larkfield/"
            f"20270103T000000Z_by_hand.csv; source_row=1; suite=larkfield; response_id={rid}; response_suite=hanna\n"
            in res.stderr), res.stderr[-4000:]


def test_store_ratings_that_cannot_count_build_with_a_warning(project):
    """A store file copied by hand (import-ratings would refuse its rows) rating a response no suite has, and a known
    response on a criterion the rubric does not have and with a score that is no number: the build passes, the
    ratings stay in fct_ratings unscored, and the build prints the rows of the warning test
    assert_store_ratings_can_count (file, row, suite, response, rater, rubric, criterion, score, problem)."""
    dst, _ = project
    rid = _first_response(dst, "larkfield")
    res, failed = _build_with_a_hand_copied_store_file(
        dst, "20270104T000000Z_by_hand.csv",
        "suite,response_id,rater_id,rater_kind,criterion,score,rubric_id,rubric_version,rated_at,store_row,"
        "judge_model,prompt_hash,failure_reason\n"
        "larkfield,no_such_reply,hand,human,correctness,1,larkfield_support,2,2027-01-04T00:00:00,1,,,\n"
        f"larkfield,{rid},hand,human,correctnes,1,larkfield_support,2,2027-01-04T00:00:00,2,,,\n"
        f"larkfield,{rid},hand,human,correctness,x,larkfield_support,2,2027-01-04T00:00:00,3,,,\n"
        # a failed judge call as judge run stores it: not a warning (fct_judge_calls reports it; a trial saw every
        # build warn about such rows)
        f"larkfield,{rid},judge:m,judge,correctness,,larkfield_support,2,2027-01-04T00:00:00,4,m,h1,"
        "malformed verdict: not valid JSON\n")
    assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-2000:]
    assert failed == [], res.stdout[-4000:]
    assert re.search(r"Warning in test assert_store_ratings_can_count .*\n.*Got 3 results", res.stdout), \
        res.stdout[-4000:]
    where = "source_file=data/ratings/larkfield/20270104T000000Z_by_hand.csv"
    assert (f"assert_store_ratings_can_count: its warning rows:\n"
            f"  {where}; source_row=1; suite=larkfield; response_id=no_such_reply; rater_id=hand; "
            "rubric_id=larkfield_support; rubric_version=2; criterion=correctness; score=1; problem=unknown response\n"
            f"  {where}; source_row=2; suite=larkfield; response_id={rid}; rater_id=hand; rubric_id=larkfield_support; "
            "rubric_version=2; criterion=correctnes; score=1; problem=unknown_criterion\n"
            f"  {where}; source_row=3; suite=larkfield; response_id={rid}; rater_id=hand; rubric_id=larkfield_support; "
            "rubric_version=2; criterion=correctness; score=x; problem=not_a_number\n") in res.stderr, \
        res.stderr[-4000:]
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        assert con.execute("select response_known, score, item_id from fct_ratings where response_id = "
                           "'no_such_reply'").fetchall() == [(False, 1, None)]
        assert con.execute("select count(*) from int_effective_scores where response_id = 'no_such_reply'"
                           ).fetchone() == (0,)
        assert con.execute("select criterion, score, score_problem from fct_ratings where rater_id = 'hand' and "
                           "response_known order by source_row").fetchall() == [
            ("correctnes", None, "unknown_criterion"), ("correctness", None, "not_a_number")]
        assert con.execute("select score_problem from fct_ratings where rater_id = 'judge:m'").fetchall() == [
            ("missing",)]


def test_a_null_key_fails_the_grain_test_which_names_it_and_how_to_recover(project):
    """A key column set to NULL by hand in an incremental mart: the build (every node) fails at the model's grain
    test, which prints the row (its key and problem 'NULL in criterion', the not_null columns being checked in the
    same test) and says that an incremental model keeps such rows until a --full-refresh of it, which recovers."""
    dst, run = project
    with duckdb.connect(str(_db(dst))) as con:
        suite, task, rubric, version, criterion = con.execute(
            "select suite, task, rubric_id, rubric_version, criterion from fct_interrater_reliability "
            "order by all limit 1").fetchone()
        con.execute("update fct_interrater_reliability set criterion = null where suite = ? and rubric_id = ? "
                    "and rubric_version = ? and criterion = ? and task is not distinct from ?",
                    [suite, rubric, version, criterion, task])
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for variable in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(variable, None)
    res = subprocess.run([str(BIN / "evalhouse"), "build", "--no-publish", "--all-nodes"], cwd=dst, env=env,
                         capture_output=True, text=True)
    assert res.returncode != 0
    failed = [line.split("  ", 1)[1] for line in res.stdout.splitlines() if "Failure in test" in line]
    assert len(failed) == 1 and failed[0].startswith("Failure in test unique_combination_fct_interrater_reliability_"), \
        res.stdout[-4000:]
    assert (f"its failing rows:\n  suite={suite}; task={task}; rubric_id={rubric}; rubric_version={version}; "
            "criterion=None; n_rows=1; problem=NULL in criterion\n") in res.stderr, res.stderr[-4000:]
    assert ("(if no input explains these rows, e.g. after a hand edit of the build file: fct_interrater_reliability "
            "is incremental and a build recomputes only the rows whose inputs changed, so they stay until `evalhouse "
            "build --full-refresh -s fct_interrater_reliability` recomputes it)") in res.stderr, res.stderr[-4000:]
    run("--full-refresh", "-s", "fct_interrater_reliability")
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        assert con.execute("select count(*) from fct_interrater_reliability where criterion is null").fetchone() \
            == (0,)


def test_dbt_arguments_leave_the_next_build_to_run_every_node(project):
    dst, run = project
    out = run("--select", "dim_rounds")
    assert "dbt arguments given (--select dim_rounds)" in out and "Running with dbt" in out
    assert build_state.load(_db(dst)) is None
    assert build_state.plan(dst, _db(dst), []).selectors is None
    assert "every node runs: the last build ran with dbt arguments (--select dim_rounds)" in run(), \
        "the next build says why every node runs"


@pytest.mark.parametrize(("signum", "code"), [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_stopped_build_stops_dbt_too(project, signum, code):
    """SIGTERM (kill) or SIGINT (Ctrl-C) to `evalhouse build` while dbt runs: dbt is stopped with it (it used to keep
    running, holding the build file's lock), the exit status is 128 + the signal, nothing is recorded, and the next
    build runs every node. The build is started with SIGINT ignored, as a shell script starts a background job:
    dbt inherits that, so it is stopped with SIGTERM whatever evalhouse received."""
    import signal
    import time

    dst, _ = project
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for name in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(name, None)
    env["PYTHONUNBUFFERED"] = "1"  # dbt's lines as they come, not at the end
    proc = subprocess.Popen([str(BIN / "evalhouse"), "build", "--no-publish", "--all-nodes"], cwd=dst, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    seen = []
    for line in proc.stdout:  # until dbt has started running nodes
        seen.append(line)
        if " START " in line:
            break
    proc.send_signal(getattr(signal, signum))
    out = "".join(seen) + proc.stdout.read()
    assert proc.wait(timeout=120) == code, out[-3000:]
    assert f"the build was stopped (signal {code - 128}); nothing published" in out, out[-3000:]
    assert "Completed successfully" not in out, out[-3000:]
    time.sleep(0.5)
    with duckdb.connect(str(_db(dst))) as con:  # no dbt left holding the lock: it opens for writing
        con.execute("select 1").fetchall()
    assert build_state.load(_db(dst)) is None
    assert build_state.plan(dst, _db(dst), []).reason == \
        "every node runs: the last build did not finish (it failed or was stopped)"


def test_dbt_arguments_are_refused_when_cached_tables_are_stale(project):
    """After a change of the rating chain's code (any macro counts), its tables must be rebuilt whole: a build
    with --select would drop them and rebuild only what it selects, publishing a warehouse without the rating
    marts. It stops instead, exit 2, before dropping anything; a plain build then rebuilds them."""
    dst, run = project
    with (dst / "macros" / "portable.sql").open("a") as f:
        f.write("\n{#- a comment: the chain's code hash changes -#}\n")
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for name in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(name, None)
    res = subprocess.run([str(BIN / "evalhouse"), "build", "--no-publish", "--select", "dim_items"], cwd=dst,
                         env=env, capture_output=True, text=True)
    assert res.returncode == 2, res.stdout[-3000:] + res.stderr[-3000:]
    assert "the rating chain's code changed since its tables were made, so every node must run once" in res.stderr
    assert "Running with dbt" not in res.stdout
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        assert con.execute("select count(*) from fct_ratings").fetchone()[0] > 0  # nothing dropped
    out = run()
    assert "the rating chain's code changed since its tables were made: rebuilt whole" in out, out
