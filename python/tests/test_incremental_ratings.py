"""The incremental rating chain (macros/rating_chain.sql) gives the same rows as a full rebuild.

In a built copy of the project, each change is made, the chain is rebuilt incrementally, its models and the marts on
them are saved, then rebuilt with --full-refresh and compared row by row (as multisets): a new ratings file, a
re-rating (later rated_at) of an existing key together with an edited file, a removed file, a changed rubric rule,
a changed rubric version note. The per-suite models recompute only the changed suites; a state saved without the
groups' suite (an older evalhouse) counts as none. Last, a build's grain tests read only the recomputed responses,
`dbt test` every row.
"""
from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from conftest import copy_project

from evalhouse.cli.suites import RATING_CHAIN_MODELS

BIN = Path(sys.executable).parent
CHAIN = list(RATING_CHAIN_MODELS)
# the chain and two marts on it (tables, rebuilt from the incremental models every run)
COMPARED = [m for m in CHAIN if m != "int_rating_changes"] + ["fct_model_run_scores", "base_ratings_store__ratings"]
# the ratings store is read file by file into base_ratings_store__ratings (incremental: new, changed and removed
# files), then through views; the rubric tables are rebuilt for the rubric change; the models only (their data
# tests run in every `make build`, and compare nothing between the two builds)
SELECT = ["--select", "base_ratings_store__ratings", *CHAIN, "fct_model_run_scores", "+int_rubric_criteria",
          "+int_rubric_rules", "+int_rubric_versions", "--exclude-resource-type", "test", "--exclude-resource-type",
          "unit_test"]
STORE = "data/ratings/larkfield"
# the chain models recomputed per suite (macros/rating_chain.sql, rating_chain_suite_models)
SUITE_MODELS = ["int_reliability_cells", "fct_judge_human_agreement", "fct_judge_diagnostics", "fct_system_rankings",
                "int_reliability_unit_patterns", "fct_interrater_reliability", "fct_coder_set_alpha"]
HEADER = ["suite", "response_id", "packet_id", "letter", "rater_id", "rater_kind", "criterion", "score", "reason",
          "rubric_id", "rubric_version", "is_blind", "rated_at", "store_row"]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    dst = copy_project(tmp_path_factory.mktemp("incr") / "evalhouse", built=True)
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    env.pop("EVALHOUSE_DB", None)
    env.pop("EVALHOUSE_PUBLISHED_DB", None)

    def run(*args: str) -> str:
        res = subprocess.run([str(BIN / "evalhouse"), "build", "--no-publish", *args], cwd=dst, env=env,
                             capture_output=True, text=True)
        assert res.returncode == 0, res.stdout[-4000:] + res.stderr[-4000:]
        return res.stdout

    run(*SELECT)  # the copy's chain as an incremental build leaves it (state saved)
    return dst, run


def _db(dst: Path) -> Path:
    return dst / "warehouse" / "build" / "evalhouse.duckdb"


def _query(dst: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        return con.execute(sql).fetchall()


def _rebuild_and_compare(project) -> None:
    """Incremental build, keep a copy, --full-refresh build, compare every row of every compared model."""
    dst, run = project
    run(*SELECT)
    assert _query(dst, "select count(*) from int_rating_changes") == [(0,)], "the state was not saved"
    incremental = dst / "incremental.duckdb"
    shutil.copy2(_db(dst), incremental)
    run(*SELECT, "--full-refresh")
    with duckdb.connect(str(_db(dst)), read_only=True) as con:
        con.execute(f"attach '{incremental}' as inc (read_only)")
        for model in COMPARED:
            cols = [r[0] for r in con.execute(
                f"select column_name from information_schema.columns where table_catalog = 'evalhouse' "
                f"and table_name = '{model}' order by ordinal_position").fetchall()]
            inc_cols = [r[0] for r in con.execute(
                f"select column_name from information_schema.columns where table_catalog = 'inc' "
                f"and table_name = '{model}' order by ordinal_position").fetchall()]
            assert cols == inc_cols, model
            n_full, n_inc = (con.execute(f"select count(*) from {db}.main.{model}").fetchone()[0]
                             for db in ("evalhouse", "inc"))
            only_full = con.execute(f"select count(*) from (select * from evalhouse.main.{model} except all "
                                    f"select * from inc.main.{model})").fetchone()[0]
            only_inc = con.execute(f"select count(*) from (select * from inc.main.{model} except all "
                                   f"select * from evalhouse.main.{model})").fetchone()[0]
            assert (n_full, only_full, only_inc) == (n_inc, 0, 0), \
                f"{model}: {n_full} rows full, {n_inc} incremental, {only_full} only full, {only_inc} only incremental"
    incremental.unlink()


def _write_store_file(dst: Path, name: str, rows: list[dict]) -> Path:
    path = dst / STORE / name
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=HEADER)
        w.writeheader()
        for i, row in enumerate(rows, 1):
            w.writerow({"suite": "larkfield", "packet_id": "", "letter": "", "rater_kind": "human", "reason": "",
                        "rubric_id": "larkfield_support", "is_blind": "", "store_row": i, **row})
    return path


def _larkfield_ratings(dst: Path) -> list[tuple]:
    return _query(dst, "select response_id, criterion, rubric_version, score from int_effective_scores "
                       "where rating_id is not null and not carried_forward and suite = 'larkfield' and rater_id = 'course_team' order by all")


def test_one_list_of_chain_models():
    """The chain's models as macros/rating_chain.sql lists them (dbt: state, tests) and as evalhouse build drops
    them on a code change (evalhouse.cli.suites.RATING_CHAIN_MODELS) are the same list."""
    macro = (Path(__file__).resolve().parents[2] / "macros" / "rating_chain.sql").read_text()
    body = re.search(r"macro rating_chain_models\(\).*?return\(\[(.*?)\]\)", macro, re.S).group(1)
    assert re.findall(r"'([a-z_]+)'", body) == CHAIN


def test_one_list_of_per_suite_chain_models():
    macro = (Path(__file__).resolve().parents[2] / "macros" / "rating_chain.sql").read_text()
    body = re.search(r"macro rating_chain_suite_models\(\).*?return\(\[(.*?)\]\)", macro, re.S).group(1)
    assert re.findall(r"'([a-z_]+)'", body) == SUITE_MODELS == CHAIN[-len(SUITE_MODELS):]


def test_changed_suites_and_the_rows_they_keep():
    """evalhouse.warehouse.rating_chain on a small in-memory DuckDB: the suites of the change list (every suite, None,
    in a full build or when a changed group has no suite), the rows restricted to them (a quote in a suite name),
    and a few suites' rows cast to the stored table's types (an all-NULL pandas column of object dtype)."""
    import pandas as pd

    from evalhouse.warehouse.rating_chain import as_stored, changed_suites, in_suites, unchanged

    con = duckdb.connect()
    changes = con.sql("select * from (values ('f', 'b', 'r1'), ('f', 'a', 'r2'), ('g', 'a', 'r3')) "
                      "as t(source_file, suite, response_id)")
    assert changed_suites(changes, incremental=True) == ["a", "b"]
    assert changed_suites(changes, incremental=False) is None
    assert changed_suites(changes.filter("false"), incremental=True) == []
    with_null = con.sql("select 'f' as source_file, cast(null as varchar) as suite, 'r' as response_id "
                        "union all select 'f', 'a', 'r2'")
    assert changed_suites(with_null, incremental=True) is None
    rows = con.sql("select * from (values ('a', 1), ('b', 2), ('o''k', 3)) as t(suite, n)")
    assert sorted(in_suites(rows, ["b", "o'k"]).fetchall()) == [("b", 2), ("o'k", 3)]
    assert in_suites(rows, []).fetchall() == []
    assert len(in_suites(rows, None).fetchall()) == 3
    con.execute("create table stored (suite varchar, task varchar, kappa double, n bigint)")
    con.execute("insert into stored values ('z', 't', 0.5, 4)")
    frame = pd.DataFrame({"n": [3], "kappa": [None], "task": [None], "suite": ["a"]})
    cast = as_stored(con, frame, "stored")
    assert (cast.columns, [str(t) for t in cast.types], cast.fetchall()) == \
        (["suite", "task", "kappa", "n"], ["VARCHAR", "VARCHAR", "DOUBLE", "BIGINT"], [("a", None, None, 3)])
    assert unchanged(con, "stored").fetchall() == [] and unchanged(con, "stored").columns == cast.columns
    with pytest.raises(duckdb.BinderException, match="kappa"):
        as_stored(con, frame.drop(columns="kappa"), "stored")


def test_new_ratings_file(project):
    dst, run = project
    known = _larkfield_ratings(dst)[:6]
    rows = [{"response_id": rid, "rater_id": "second_reader", "criterion": crit, "rubric_version": ver,
             "score": (score + 1) % 3, "rated_at": "2026-03-01T00:00:00"} for rid, crit, ver, score in known]
    rows.append({"response_id": "no-such-response", "rater_id": "second_reader", "criterion": "correctness",
                 "rubric_version": 1, "score": 2, "rated_at": "2026-03-01T00:00:00"})
    path = _write_store_file(dst, "20260301T000000Z_second_reader.csv", rows)
    # only the change detection: the state stays, the changed pairs are the new file's responses
    run("--select", "base_ratings_store__ratings", "int_rating_groups", "int_rating_changes")
    # the store's table read the new file only (and the header-only file, which gives no row)
    compiled = (dst / "target" / "compiled" / "evalhouse" / "models" / "staging" / "ratings_store" / "base" /
                "base_ratings_store__ratings.sql").read_text()
    assert (f"read_csv(['data/ratings/_schema/000_header.csv', '{STORE}/{path.name}'], header = true"
            in compiled), compiled
    changes = set(_query(dst, "select source_file, response_id from int_rating_changes"))
    assert {rid for _, rid in changes} == {r["response_id"] for r in rows}
    assert {Path(f).name for f, _ in changes} == {path.name}
    assert _query(dst, "select distinct suite from int_rating_changes") == [("larkfield",)]
    _rebuild_and_compare(project)
    assert _query(dst, "select count(*) from int_effective_scores where rating_id is not null "
                       "and not carried_forward and rater_id = 'second_reader'") == [(6,)]


def test_rerating_and_edited_file(project):
    dst, _ = project
    rid, crit, ver, score = _larkfield_ratings(dst)[0]
    _write_store_file(dst, "20260302T000000Z_course_team_rerate.csv", [
        {"response_id": rid, "rater_id": "course_team", "criterion": crit, "rubric_version": ver,
         "score": (score + 1) % 3, "rated_at": "2027-01-01T00:00:00"}])
    # an edit by hand that keeps the file's size and modification time (a one-digit score, `cp -p` / `touch -r`):
    # the store's table compares a hash of the bytes, so it is read again
    edited = dst / STORE / "20260301T000000Z_second_reader.csv"
    before = edited.stat()
    with edited.open(newline="") as f:
        rows = list(csv.DictReader(f))
    new_score = (int(rows[0]["score"]) + 1) % 3
    rows[0].update(score=str(new_score))
    with edited.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=HEADER)
        w.writeheader()
        w.writerows(rows)
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert (edited.stat().st_size, edited.stat().st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    _rebuild_and_compare(project)
    assert (rid, crit, ver, (score + 1) % 3) in _larkfield_ratings(dst)
    assert _query(dst, "select score from int_effective_scores where rater_id = 'second_reader' and not "
                       f"carried_forward and response_id = '{rows[0]['response_id']}' and criterion = "
                       f"'{rows[0]['criterion']}'") == [(new_score,)]


def test_removed_file(project):
    dst, _ = project
    # the files the tests above added (a bundled file is checked by the lesson's data tests)
    (dst / STORE / "20260302T000000Z_course_team_rerate.csv").unlink()
    (dst / STORE / "20260301T000000Z_second_reader.csv").unlink()
    _rebuild_and_compare(project)
    assert _query(dst, "select count(*) from int_ratings where rater_id = 'second_reader'") == [(0,)]


def test_word_search_rows_unlike_the_first_filter_are_recomputed(project):
    """fct_word_search_vs_human keeps a response's rows only while they hold int_first_filter's values: its first
    filter can change without a rating change (suite settings, labels), which int_rating_changes does not list.
    Stored rows made to differ (a verdict flipped, a count changed) and a response's rows deleted are what such a
    change leaves; the incremental build recomputes them and equals --full-refresh."""
    dst, _ = project
    flipped, counted, deleted = (r[0] for r in _query(
        dst, "select distinct response_id from fct_word_search_vs_human where suite = 'larkfield' order by 1 limit 3"))
    with duckdb.connect(str(_db(dst))) as con:
        con.execute("update fct_word_search_vs_human set word_search_verdict = case word_search_verdict "
                    "when 'pass' then 'fail' else 'pass' end where response_id = ?", [flipped])
        con.execute("update fct_word_search_vs_human set n_labels_wrong = coalesce(n_labels_wrong, 0) + 7 "
                    "where response_id = ?", [counted])
        con.execute("delete from fct_word_search_vs_human where response_id = ?", [deleted])
    _rebuild_and_compare(project)
    assert _query(dst, "select count(distinct response_id) from fct_word_search_vs_human where response_id in "
                       f"('{flipped}', '{counted}', '{deleted}')") == [(3,)]


def test_changed_rubric_rule(project):
    dst, _ = project
    suite = dst / "suites" / "example_qa" / "suite.yml"
    suite.write_text(suite.read_text().replace("ready_gate: [correctness]",
                                               "ready_gate: [correctness, unsupported_claims]"))
    before = _query(dst, "select count(*) from int_reply_scores where suite = 'example_qa' and ready")
    _rebuild_and_compare(project)
    assert _query(dst, "select count(*) from int_reply_scores where suite = 'example_qa' and ready") != before


def test_changed_version_note(project):
    """fct_stale_ratings shows the note of the version that changed a criterion: a new note is a rubric version
    change (int_rating_groups' fingerprint), so the incremental build recomputes it like a full one."""
    dst, _ = project
    suite = dst / "suites" / "larkfield" / "suite.yml"
    old = "The application now strips a Markdown code fence before parsing the JSON"
    suite.write_text(suite.read_text().replace(old, "Fences are stripped now; " + old))
    _rebuild_and_compare(project)
    notes = _query(dst, "select distinct change_note from fct_stale_ratings where suite = 'larkfield'")
    assert len(notes) == 1 and notes[0][0].startswith("Fences are stripped now; " + old), notes


def _suite_rows(dst: Path, suite: str) -> dict[str, list[tuple]]:
    return {m: _query(dst, f"select * from {m} where suite = '{suite}' order by all") for m in SUITE_MODELS}


def test_per_suite_models_recompute_only_the_changed_suites(project):
    """A new larkfield rating file (a judge's): the per-suite chain models (rating_chain_suite_models) recompute
    larkfield's rows and no other suite's. Rows deleted behind dbt's back show it: larkfield's come back, with the
    judge's, sottana's stay away until --full-refresh, which gives larkfield the same rows."""
    dst, run = project
    known = _larkfield_ratings(dst)
    _write_store_file(dst, "20260304T000000Z_judge_test.csv", [
        {"response_id": rid, "rater_id": "judge:test", "rater_kind": "judge", "criterion": crit,
         "rubric_version": ver, "score": score, "rated_at": "2026-03-04T00:00:00"} for rid, crit, ver, score in known])
    hanna = {m: _query(dst, f"select count(*) from {m} where suite = 'hanna'")[0][0] for m in SUITE_MODELS}
    sottana = {m: _query(dst, f"select count(*) from {m} where suite = 'sottana'")[0][0] for m in SUITE_MODELS}
    assert all(sottana.values()) and all(hanna.values()), (sottana, hanna)
    with duckdb.connect(str(_db(dst))) as con:
        for m in SUITE_MODELS:
            con.execute(f"delete from {m} where suite in ('larkfield', 'sottana')")
    run(*SELECT)
    incremental = _suite_rows(dst, "larkfield")
    assert all(incremental.values()), {m: len(r) for m, r in incremental.items()}
    assert _query(dst, "select count(*) from fct_judge_diagnostics where suite = 'larkfield' "
                       "and rater_id = 'judge:test'")[0][0] > 0
    assert {m: _query(dst, f"select count(*) from {m} where suite = 'sottana'")[0][0] for m in SUITE_MODELS} \
        == dict.fromkeys(SUITE_MODELS, 0)
    assert {m: _query(dst, f"select count(*) from {m} where suite = 'hanna'")[0][0] for m in SUITE_MODELS} == hanna
    run(*SELECT, "--full-refresh")
    assert {m: _query(dst, f"select count(*) from {m} where suite = 'sottana'")[0][0] for m in SUITE_MODELS} \
        == sottana
    assert _suite_rows(dst, "larkfield") == incremental
    (dst / STORE / "20260304T000000Z_judge_test.csv").unlink()
    _rebuild_and_compare(project)
    assert _query(dst, "select count(*) from fct_judge_diagnostics where rater_id = 'judge:test'") == [(0,)]


def test_a_state_saved_without_the_suite_column(project):
    """A state and a pending change list saved by an older evalhouse (groups without their suite) count as no
    state: the next incremental build recomputes every key, as a full one does."""
    dst, _ = project
    with duckdb.connect(str(_db(dst))) as con:
        con.execute("alter table _rating_chain_state drop column suite")
        con.execute("alter table int_rating_changes drop column suite")
    known = _larkfield_ratings(dst)[:2]
    _write_store_file(dst, "20260305T000000Z_second_reader.csv", [
        {"response_id": rid, "rater_id": "second_reader", "criterion": crit, "rubric_version": ver,
         "score": score, "rated_at": "2026-03-05T00:00:00"} for rid, crit, ver, score in known])
    _rebuild_and_compare(project)


def test_grain_tests_check_the_recomputed_rows(project):
    """In a build, a chain model's grain test reads only the responses the run recomputed (rating_chain_test_filter);
    `dbt test` reads every row. A duplicate written behind dbt's back into a response no build touches is found by
    `dbt test` only, and once that response changes, the build deletes and recomputes it."""
    dst, run = project
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    env.pop("EVALHOUSE_DB", None)
    (rid,) = _query(dst, "select min(response_id) from int_reply_scores where suite = 'larkfield'")[0]
    with duckdb.connect(str(_db(dst))) as con:
        n = con.execute("select count(*) from int_reply_scores where response_id = ?", [rid]).fetchone()[0]
        con.execute("insert into int_reply_scores select * from int_reply_scores where response_id = ? limit 1",
                    [rid])
    grain = ["--select", "int_reply_scores", "--exclude", "test_type:unit"]
    out = run(*grain)  # the model and its data tests: nothing changed, nothing recomputed, nothing checked
    compiled = next((dst / "target" / "run").rglob("unique_combination_int_reply_s*.sql")).read_text()
    assert "int_rating_changes" in compiled, compiled
    assert " ERROR=0 " in out
    res = subprocess.run([str(BIN / "dbt"), "test", *grain], cwd=dst, env=env, capture_output=True, text=True)
    assert res.returncode == 1 and "Got 1 result" in res.stdout, res.stdout[-3000:]
    # a new rating of that response: the build recomputes it, the duplicate is gone, the test passes
    rater, kind, crit, ver, score = _query(dst, f"select rater_id, rater_kind, criterion, rubric_version, score "
                                                f"from int_effective_scores where rating_id is not null "
                                                f"and not carried_forward and response_id = '{rid}' "
                                                f"order by all limit 1")[0]
    _write_store_file(dst, "20260303T000000Z_rerate.csv", [
        {"response_id": rid, "rater_id": rater, "rater_kind": kind, "criterion": crit, "rubric_version": ver,
         "score": score, "rated_at": "2027-02-01T00:00:00"}])
    run(*SELECT)
    assert _query(dst, f"select count(*) from int_reply_scores where response_id = '{rid}'") == [(n,)]
    res = subprocess.run([str(BIN / "dbt"), "test", *grain], cwd=dst, env=env, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout[-3000:]


def test_suite_groups_are_kept_until_the_landing_changes(project):
    """int_rating_groups keeps the suites' groups while their rating rows come from the same landed ratings file
    (its md5) and hashes the ratings store's again in every run. A suite group's hash altered behind dbt's back
    shows it: a store-only change leaves it altered (kept, not hashed again); an edited suite ratings file lands
    again and hashes every suite group, the altered one included, and the build equals a full one."""
    dst, run = project
    ratings = dst / "suites" / "larkfield" / "ratings.csv"
    with ratings.open(newline="") as f:
        rows = list(csv.DictReader(f))
    first = rows[0]
    suite_file = _query(dst, "select distinct source_file from int_rating_groups where suite = 'larkfield' "
                             "and rows_fingerprint is not null")
    assert suite_file == [("suites/larkfield/ratings.csv",)], suite_file
    with duckdb.connect(str(_db(dst))) as con:
        con.execute("update int_rating_groups set content_hash = 'altered' where source_file = ? "
                    "and response_id = ?", [suite_file[0][0], first["response_id"]])
    known = _larkfield_ratings(dst)[:1]
    _write_store_file(dst, "20260306T000000Z_second_reader.csv", [
        {"response_id": rid, "rater_id": "second_reader", "criterion": crit, "rubric_version": ver,
         "score": score, "rated_at": "2026-03-06T00:00:00"} for rid, crit, ver, score in known])
    run(*SELECT)
    assert _query(dst, "select count(*) from int_rating_groups where content_hash = 'altered'") == [(1,)]
    assert _query(dst, "select count(*) from int_rating_groups where source_file like '%20260306T000000Z%'") \
        == [(1,)]
    # an edited suite rating: the larkfield response's score in the suite's own file
    first["score"] = str((int(first["score"]) + 1) % 3)
    with ratings.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    _rebuild_and_compare(project)
    assert _query(dst, "select count(*) from int_rating_groups where content_hash = 'altered'") == [(0,)]
    assert _query(dst, "select score from int_ratings where source_file = 'suites/larkfield/ratings.csv' and "
                       f"response_id = '{first['response_id']}' and rater_id = '{first['rater_id']}' and "
                       f"criterion = '{first['criterion']}'") == [(int(first["score"]),)]
