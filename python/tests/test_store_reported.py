"""Ratings import: a rater's own ready / pass and total are kept (reported_decision, reported_total) and compared
with the recomputation in fct_reported_decisions; rater ids are checked; a missing rater is said once; long problem
lists are summarised after 50."""
from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from evalhouse.problems import problem_kind, summarise
from evalhouse.ratings import store

ROOT = Path(__file__).resolve().parents[2]
DBT = Path(sys.executable).parent / "dbt"
OPUS = "larkfield-S07-eb3f77df65c8-r1"
GEMMA = "larkfield-S07-2e3f70ab4524-r1"
CRITERIA = ("correctness", "completeness", "format_compliance", "appropriate_abstention")


@pytest.fixture()
def env(warehouse, tmp_path):
    return dict(catalog=store.Catalog.from_warehouse(warehouse, keys_dir=tmp_path / "keys"),
                store_dir=tmp_path / "store", tmp=tmp_path)


def write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def rejected(path, env, **kw) -> store.ImportRejected:
    with pytest.raises(store.ImportRejected) as info:
        store.import_ratings(path, env["catalog"], store_dir=env["store_dir"], **kw)
    assert not env["store_dir"].exists() or not any(env["store_dir"].rglob("*.csv"))
    return info.value


def judge_file(env, name="judge.csv", ready_a="false", ready_b="true", total_a="8", total_b="7",
               column="ready") -> Path:
    """Opus scored 2,2,2,2 (recomputed: ready, total 8) and Gemma 2,2,2,0 (not ready, total 6)."""
    rows = [f"response_id,criterion,score,{column},total"]
    rows += [f"{OPUS},{c},2,{ready_a},{total_a}" for c in CRITERIA]
    rows += [f"{GEMMA},{c},{0 if c == 'appropriate_abstention' else 2},{ready_b},{total_b}" for c in CRITERIA]
    return write(env["tmp"] / name, rows)


def test_reported_ready_and_total_are_kept_in_the_store(env):
    target, n = store.import_ratings(judge_file(env), env["catalog"], rater="judge@prompt_1", rater_kind="judge",
                                     store_dir=env["store_dir"])
    rows = list(csv.DictReader(open(target, encoding="utf-8")))
    assert n == 8 and list(rows[0])[-2:] == ["reported_decision", "reported_total"]
    assert {(r["response_id"], r["reported_decision"], r["reported_total"]) for r in rows} == {
        (OPUS, "false", "8"), (GEMMA, "true", "7")}


def test_pass_column_and_words_are_read(env):
    f = judge_file(env, column="pass", ready_a="PASS", ready_b="no")
    target, _ = store.import_ratings(f, env["catalog"], rater="judge", store_dir=env["store_dir"])
    rows = list(csv.DictReader(open(target, encoding="utf-8")))
    assert {(r["response_id"], r["reported_decision"]) for r in rows} == {(OPUS, "true"), (GEMMA, "false")}


def test_unreadable_or_inconsistent_reported_values_are_rejected(env):
    f = judge_file(env, ready_a="maybe")
    assert f"{f}:2:ready: 'maybe' is not true/false, yes/no, 1/0 or pass/fail" in rejected(f, env, rater="j").problems
    f = judge_file(env, total_b="7.5")
    assert f"{f}:6:total: '7.5' is not a whole number" in rejected(f, env, rater="j").problems
    lines = (env["tmp"] / "judge.csv").read_text().splitlines()
    lines[3] = lines[3].replace(",false,", ",true,")  # row 4: Opus's third criterion says ready, rows 2-3 did not
    f = write(env["tmp"] / "mixed.csv", [lines[0], *[line.replace("7.5", "7") for line in lines[1:]]])
    assert (f"{f}:4:ready: the rater's own decision differs from row 2 of the same reply ('false' there, "
            "'true' here)") in rejected(f, env, rater="j").problems


def test_rater_ids_are_checked(env):
    f = write(env["tmp"] / "r.csv", ["response_id,criterion,score,rater_id", f"{OPUS},correctness,2,../../x",
                                     f"{OPUS},completeness,2,Zoë Martin@lab.fr"])
    problems = rejected(f, env).problems
    rule = "letters, digits, '.', '_', '-', '@', ':', '/' and spaces only; no part between ':' or '/' empty or only dots"
    assert problems == [f"{f}:2:rater_id: '../../x' is not a rater id ({rule})"]
    assert rejected(f, env, rater="a;b").problems == [f"{f}:-:rater_id: --rater 'a;b' is not a rater id ({rule})"]
    assert store.rater_id_problem("grace_1.b-2@x y") is None
    # the ids `evalhouse judge run` writes: judge:<model>, the model often org/name
    assert store.rater_id_problem("judge:trial") is None and store.rater_id_problem("judge:org/model-7b") is None
    for bad in ("..", "/x", "a//b", "a/", "a/../b", "judge:x?", "judge:", ":", "a::b", "judge:../x", "x" * 101,
                " ", "ana ", " ana"):
        assert store.rater_id_problem(bad) is not None, bad
    assert store.rater_id_problem(" ") == "empty rater"
    assert store.rater_id_problem("ana ") == "'ana ' is not a rater id (spaces at its start or end: another rater " \
                                             "than 'ana')"
    f = write(env["tmp"] / "j.csv", ["response_id,criterion,score", f"{OPUS},correctness,2"])
    target, n = store.import_ratings(f, env["catalog"], rater="judge:org/model-7b", rater_kind="judge",
                                     store_dir=env["store_dir"])
    assert n == 1 and "_judge-org-model-7b_" in target.name  # the file name keeps [A-Za-z0-9_.-] only


def test_a_missing_rater_is_said_once(env):
    rows = ["response_id,criterion,score,rater_id"] + [f"{OPUS},{c},2," for c in CRITERIA] * 11
    f = write(env["tmp"] / "norater.csv", rows)
    assert rejected(f, env).problems == [f"{f}:1:rater_id: empty on every row (44 rows); fill it or pass --rater"]


def test_problem_lists_are_summarised_after_50(env):
    rows = ["response_id,criterion,score"] + [f"{OPUS},correctness,x{i}" for i in range(300)]
    rows += [f"{OPUS},nonsense{i},1" for i in range(5)]
    f = write(env["tmp"] / "bad.csv", rows)
    exc = rejected(f, env, rater="grace")
    assert len(exc.problems) == 305  # every problem is still available to code
    lines = str(exc).splitlines()
    assert lines[0] == "305 problem(s); nothing was imported:"
    assert lines[1] == f"{f}:2:score: 'x0' is not a whole number" and len(lines) == 1 + 50 + 3
    assert lines[51] == "... and 255 more problem(s) (305 in all), by kind:"
    assert lines[52].split() == ["250", "score:", "'…'", "is", "not", "a", "whole", "number"]
    assert lines[53].startswith("         5  criterion: unknown criterion '…'; expected one of")


def test_problem_kind():
    assert problem_kind("a.csv:12:score: 'x' is not a whole number") == "score: '…' is not a whole number"
    assert problem_kind("r.json:3:17: cards/1/case_id: case 'C01' twice") == "cards/N/case_id: case '…' twice"
    assert summarise([]) == "" and summarise(["x"]) == "x"


# ------------------------------------------------------------------------------------------ warehouse (dbt build)
@pytest.fixture(scope="module")
def built(warehouse, tmp_path_factory):
    """The shipped store files (written before the reported columns existed) plus one judge import with reported
    values, built into a temporary DuckDB file (--vars ratings_store_glob)."""
    tmp = tmp_path_factory.mktemp("reported")
    store_dir = tmp / "store"
    shutil.copytree(ROOT / "data" / "ratings", store_dir)
    old_files = sorted(p.name for p in store_dir.rglob("*.csv"))
    env = dict(catalog=store.Catalog.from_warehouse(warehouse, keys_dir=tmp / "keys"), store_dir=store_dir, tmp=tmp)
    target, _ = store.import_ratings(judge_file(env), env["catalog"], rater="judge@prompt_1", rater_kind="judge",
                                     store_dir=store_dir)
    db = tmp / "reported.duckdb"
    run_env = dict(os.environ, EVALHOUSE_DB=str(db), DBT_PROFILES_DIR=str(ROOT), EVALHOUSE_PROJECT_DIR=str(ROOT),
                   DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    run = subprocess.run(
        [str(DBT), "build", "--no-use-colors", "--indirect-selection", "cautious", "--select",
         "+fct_reported_decision_summary", "--exclude", "resource_type:unit_test", "--target-path",
         str(tmp / "target"), "--log-path", str(tmp / "logs"),
         "--vars", f"{{ratings_store_glob: '{store_dir}/*/*.csv'}}"],
        cwd=ROOT, env=run_env, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    con = duckdb.connect(str(db), read_only=True)
    yield con, target, old_files
    con.close()


def test_old_store_files_still_read(built):
    con, _, old_files = built
    assert "000_header.csv" in old_files and len(old_files) >= 3
    n_old = con.execute("select count(*), count(reported_decision) from stg_ratings_store__ratings "
                        "where rater_id = 'course_team'").fetchone()
    assert n_old[0] > 0 and n_old[1] == 0


def test_disagreements_with_the_recomputed_decision_are_counted(built):
    con, target, _ = built
    got = con.execute("select response_id, reported_decision, ready, decision_agrees, reported_total, total, "
                      "total_agrees, source_file from fct_reported_decisions order by response_id").fetchall()
    assert got == [
        (GEMMA, True, False, False, 7, 6, False, str(target)),   # said ready: abstention 0 -> not ready; 7 vs 6
        (OPUS, False, True, False, 8, 8, True, str(target)),     # said not ready: 2,2,2,2 -> ready; 8 = 8
    ]
    summary = con.execute("select rater_id, rubric_version, n_replies_reported, n_decision_disagreements, "
                          "n_reported_ready_recomputed_not, n_reported_not_ready_recomputed_ready, "
                          "n_total_disagreements from fct_reported_decision_summary").fetchall()
    assert summary == [("judge@prompt_1", 2, 2, 2, 1, 1, 1)]
    # never used for scoring: the recomputed reply scores are those of the criterion scores
    assert con.execute("select total from fct_reply_scores where rater_id = 'judge@prompt_1' order by response_id"
                       ).fetchall() == [(6,), (8,)]
