"""A suite written as a folder by this test (no SQL, no dbt_project.yml edit) is built and scored like any other,
in a temporary copy of the project: values computed by hand in fct_model_run_scores, fct_two_reader_agreement and
the app's leaderboard. A broken suite stops `evalhouse build` before dbt runs and the published warehouse stays."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SELECT = ("--quiet", "--indirect-selection", "cautious", "--select", "+fct_model_run_scores",
          "+fct_two_reader_agreement", "+fct_model_run_criterion_scores", "+fct_model_run_score_intervals",
          "+dim_items", "+dim_rubric_levels", "+int_reliability_scores")

SUITE_YML = """\
title: Team QA
licence: CC0-1.0
attribution: written by a test
rubrics:
  - rubric_id: team_qa_quality
    criteria:
      - criterion: correctness
        min_score: 0
        max_score: 2
        direction: higher
        levels: [{level: 0, anchor: Wrong}, {level: 1, anchor: Partly right}, {level: 2, anchor: Right}]
      - criterion: unsupported_claims
        min_score: 0
        max_score: 2
        direction: lower
        levels: [{level: 0, anchor: None}, {level: 1, anchor: One}, {level: 2, anchor: Two or more}]
    versions:
      - {version: 1, effective_from: "2026-11-02"}
    decision_rule:
      ready_gate: [correctness]
"""
# (system, item) -> (correctness, unsupported_claims) per rater
ANA = {("model_a", "q1"): (2, 0), ("model_a", "q2"): (2, 0), ("model_a", "q3"): (2, 0), ("model_a", "q4"): (0, 0),
       ("model_b", "q1"): (2, 1), ("model_b", "q2"): (0, 0), ("model_b", "q3"): (2, 0), ("model_b", "q4"): (2, 1)}
BEN = {**ANA, ("model_a", "q3"): (2, 1), ("model_b", "q4"): (1, 2)}


def write_suite(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "suite.yml").write_text(SUITE_YML)
    (folder / "items.csv").write_text("item_id,input_text\n" + "".join(f"q{i},question {i}\n" for i in range(1, 5)))
    (folder / "responses.csv").write_text("item_id,system_id,response_text\n" + "".join(
        f"q{i},{s},answer {i} of {s}\n" for s in ("model_a", "model_b") for i in range(1, 5)))
    lines = ["item_id,system_id,rater_id,criterion,score"]
    for rater, scores in (("ana", ANA), ("ben", BEN)):
        for (system, item), (c, u) in scores.items():
            lines += [f"{item},{system},{rater},correctness,{c}", f"{item},{system},{rater},unsupported_claims,{u}"]
    (folder / "ratings.csv").write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    dst = tmp_path_factory.mktemp("project") / "evalhouse"
    shutil.copytree(PROJECT, dst, ignore=shutil.ignore_patterns(
        ".venv*", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "*.egg-info"))
    write_suite(dst / "suites" / "team_qa")
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for var in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(var, None)

    def run(*args, check=True):
        res = subprocess.run([str(BIN / args[0]), *args[1:]], cwd=dst, env=env, capture_output=True, text=True)
        if check:
            assert res.returncode == 0, f"{args} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
        return res

    run("evalhouse", "build", *SELECT)
    return dst, run


def query(dst: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(dst / "warehouse" / "evalhouse.duckdb"), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_no_sql_was_added(project):
    dst, _ = project
    assert not list((dst / "models").rglob("*team_qa*"))
    assert "team_qa" not in (dst / "dbt_project.yml").read_text()


def test_model_run_scores_by_hand(project):
    # points = correctness + (2 - unsupported_claims), 4 per reply; ready: correctness 2 and no criterion at its
    # worst (correctness 0 or two or more unsupported claims). ana, model_a: 4+4+4+2 = 14 -> 14/16 x 10 = 8.75.
    dst, _ = project
    rows = query(dst, "select rater_id, system_id, n_replies_scored, n_ready, sum_total, score_0_10 "
                      "from fct_model_run_scores where suite = 'team_qa' order by 1, 2")
    assert [(r[0], r[1], r[2], r[3], r[4], float(r[5])) for r in rows] == [
        ("ana", "model_a", 4, 3, 14, 8.75),
        ("ana", "model_b", 4, 3, 12, 7.50),
        ("ben", "model_a", 4, 3, 13, 8.13),  # 13/16 x 10 = 8.125, half-up
        ("ben", "model_b", 4, 2, 10, 6.25),
    ]


def test_item_ids_shared_with_another_suite_do_not_repeat_reliability_rows(project):
    """team_qa's items are q1-q4, as example_qa's are (ids are unique within a suite): the reliability scores join a
    response's item within its suite, so each suite keeps one row per response x rater x criterion."""
    dst, _ = project
    rows = dict(query(dst, "select suite, count(*) from int_reliability_scores "
                           "where suite in ('team_qa', 'example_qa') group by suite"))
    ratings = dict(query(dst, "select suite, count(*) from int_ratings where suite in ('team_qa', 'example_qa') "
                              "and response_known and rater_kind <> 'adjudicator' group by suite"))
    assert rows["team_qa"] == 2 * 8 * 2  # ana and ben x 8 replies x 2 criteria
    assert rows["example_qa"] == ratings["example_qa"]  # each rated once


def test_points_lost_honour_the_lower_is_better_criterion(project):
    dst, _ = project
    rows = query(dst, "select system_id, criterion, direction, n_at_worst, n_at_minimum, mean_points_lost "
                      "from fct_model_run_criterion_scores where suite = 'team_qa' and rater_id = 'ben' "
                      "order by 1, 2")
    assert [(r[0], r[1], r[2], r[3], r[4], float(r[5])) for r in rows] == [
        ("model_a", "correctness", "higher", 1, 1, 0.5),
        ("model_a", "unsupported_claims", "lower", 0, 3, 0.25),
        ("model_b", "correctness", "higher", 1, 1, 0.75),
        ("model_b", "unsupported_claims", "lower", 1, 2, 0.75),
    ]


def test_two_reader_agreement_by_hand(project):
    # correctness: ana 2,2,2,0,2,0,2,2 vs ben 2,2,2,0,2,0,2,1 -> 7/8; p_e = (2x2 + 0x1 + 6x5)/64 = 34/64;
    # kappa = (7/8 - 34/64) / (1 - 34/64) = 22/30. Ready: ana 3+3 ready, ben 3+2 -> 7/8 agree.
    dst, _ = project
    rows = {r[0]: r[1:] for r in query(
        dst, "select measure, n_shared, n_agree, cohen_kappa from fct_two_reader_agreement "
             "where suite = 'team_qa' and rater_a = 'ana' and rater_b = 'ben'")}
    assert rows["correctness"][:2] == (8, 7) and rows["correctness"][2] == pytest.approx(22 / 30)
    assert rows["unsupported_claims"][:2] == (8, 6)
    assert rows["ready"][:2] == (8, 7)


def test_the_app_leaderboard_shows_the_new_suite(project):
    from streamlit.testing.v1 import AppTest

    dst, _ = project
    os.environ["EVALHOUSE_PUBLISHED_DB"] = str(dst / "warehouse" / "evalhouse.duckdb")
    try:
        at = AppTest.from_file(str(PROJECT / "app" / "views" / "leaderboard.py"), default_timeout=60).run()
        assert "team_qa" in at.sidebar.selectbox(key="lb_suite").options
        at.sidebar.selectbox(key="lb_suite").set_value("team_qa").run()
        assert not at.exception, [e.value for e in at.exception]
        shown = [d.value for d in at.dataframe if "score 0-10" in d.value.columns]
        assert shown, "no leaderboard table"
        board = shown[0]
        scores = sorted(float(x) for x in board["score 0-10"])
        assert scores in ([7.5, 8.75], [6.25, 7.5, 8.13, 8.75])  # one rater, or every rater
    finally:
        os.environ.pop("EVALHOUSE_PUBLISHED_DB", None)


def test_a_broken_suite_stops_the_build_and_keeps_the_published_warehouse(project):
    dst, run = project
    published = dst / "warehouse" / "evalhouse.duckdb"
    before = published.read_bytes()
    landing = {p.name: p.read_bytes() for p in (dst / "warehouse" / "build" / "landing").iterdir()}
    ratings = dst / "suites" / "team_qa" / "ratings.csv"
    good = ratings.read_text()
    ratings.write_text(good.replace("q2,model_a,ana,correctness,2", "q2,model_a,ana,correctness,two"))
    try:
        res = run("evalhouse", "build", *SELECT, check=False)
    finally:
        ratings.write_text(good)
    assert res.returncode == 1
    assert "suites/team_qa/ratings.csv:4:score: score is not a decimal: 'two'" in res.stderr
    assert "nothing built or published" in res.stderr
    assert published.read_bytes() == before
    assert {p.name: p.read_bytes() for p in (dst / "warehouse" / "build" / "landing").iterdir()} == landing
