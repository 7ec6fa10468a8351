"""End to end through the CLI in a temporary copy of the project: blind export -> a rater fills the template ->
import-ratings -> dbt build -> the marts reveal the model only by joining the key. Also: rejected imports leave
the store untouched and exit 1 with file:row:column errors."""
from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from conftest import copy_project

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Only what this test reads (the other suites' models do not depend on the Larkfield ratings).
BUILD = ("evalhouse", "build", "--quiet", "--indirect-selection", "cautious", "--select",
         "+fct_ratings", "+fct_reply_scores", "+fct_two_reader_agreement", "+dim_items", "+dim_responses",
         "+dim_rubric_levels")


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """A copy of the project that starts built and published (conftest.copy_project)."""
    dst = copy_project(tmp_path_factory.mktemp("project") / "evalhouse", built=True)
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    env.pop("EVALHOUSE_DB", None)
    env.pop("EVALHOUSE_PUBLISHED_DB", None)

    def run(*args, check=True):
        res = subprocess.run([str(BIN / args[0]), *args[1:]], cwd=dst, env=env, capture_output=True, text=True)
        if check:
            assert res.returncode == 0, f"{args} failed:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
        return res

    return dst, run


def write_rows(path: Path, rows: list[dict]) -> Path:
    with open(path, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    return path


def test_blind_round_trip(project):
    dst, run = project
    out = dst.parent / "packets"
    res = run("evalhouse", "blind-export", str(out), "--export-id", "rt1", "--seed", "3", "--item", "S07")
    assert "exported 1 packets, 4 replies" in res.stdout
    key = {r["letter"]: r["response_id"] for r in csv.DictReader(open(dst / "data/blind/keys/rt1.csv"))}
    rows = list(csv.DictReader(open(out / "ratings_template.csv")))
    assert len(rows) == 16
    for r in rows:
        r["score"] = "2" if r["letter"] == "A" else "1"
        r["reason"] = "round trip"
    filled = write_rows(out / "filled.csv", rows)
    res = run("evalhouse", "import-ratings", str(filled), "--rater", "camille")
    assert "imported 16 ratings" in res.stdout
    # importing the same file again is refused as duplicates and writes nothing
    before = sorted(p.name for p in (dst / "data/ratings/larkfield").iterdir())
    res = run("evalhouse", "import-ratings", str(filled), "--rater", "camille", check=False)
    assert res.returncode == 1 and f"{filled}:2:criterion: duplicate rating: already stored at" in res.stderr
    assert sorted(p.name for p in (dst / "data/ratings/larkfield").iterdir()) == before

    # a second reader scores the same packet; she differs on B's correctness (2 instead of 1)
    for r in rows:
        if r["letter"] == "B" and r["criterion"] == "correctness":
            r["score"] = "2"
    second = write_rows(out / "second.csv", rows)
    run("evalhouse", "import-ratings", str(second), "--rater", "grace")

    run(*BUILD)
    run("evalhouse", "publish")
    con = duckdb.connect(str(dst / "warehouse/evalhouse.duckdb"), read_only=True)
    agreement = {r[0]: r[1:] for r in con.execute(
        "select measure, n_shared, n_agree, exact_agreement, cohen_kappa, kappa_quadratic, kappa_reason "
        "from fct_two_reader_agreement where rater_a = 'camille' and rater_b = 'grace'").fetchall()}
    # correctness: camille [2,1,1,1], grace [2,2,1,1]: po = 3/4, pe = 1/4*2/4 + 3/4*2/4 = 1/2 -> kappa 0.5
    n, agree, exact, kappa, _, _ = agreement["correctness"]
    assert (n, agree, float(exact)) == (4, 3, 0.75) and kappa == pytest.approx(0.5)
    # completeness: identical, two categories used -> kappa 1.0
    assert agreement["completeness"][3] == pytest.approx(1.0)
    # ready: camille [T,F,F,F], grace [T,T,F,F] (B now has correctness 2 and no zero) -> 3/4 and kappa 0.5
    assert agreement["ready"][:3] == (4, 3, 0.75) and agreement["ready"][3] == pytest.approx(0.5)
    assert agreement["all_criteria"][:2] == (4, 3) and agreement["all_criteria"][3] is None
    got = con.execute(
        "select response_id, system_id, total, ready, rubric_version from fct_reply_scores "
        "where rater_id = 'camille' order by response_id").fetchall()
    systems = dict(con.execute("select response_id, system_id from dim_responses").fetchall())
    assert len(got) == 4
    for response_id, system_id, total, ready, version in got:
        assert system_id == systems[response_id]
        assert version == 2
        assert (total, ready) == ((8, True) if response_id == key["A"] else (4, False))
    # two readers: camille (v2) and the course team (v1 carried to... no v2 set) share no version -> no pair yet;
    # blind ratings keep their letter in the store and are flagged blind
    assert con.execute("select count(*) from fct_ratings where rater_id = 'camille' and is_blind").fetchone()[0] == 16
    con.close()


def test_cli_errors_exit_1_with_location(project, tmp_path):
    dst, run = project
    bad = tmp_path / "bad.csv"
    bad.write_text("suite,item_id,system_id,rater_id,criterion,score\nlarkfield,S07,Nobody 1B,grace,correctness,2\n")
    res = run("evalhouse", "import-ratings", str(bad), check=False)
    assert res.returncode == 1
    assert f"{bad}:2:system_id: no response of model run 'Nobody 1B' to item 'S07'" in res.stderr
    res = run("evalhouse", "blind-export", str(tmp_path / "x"), "--export-id", "rt1", check=False)
    assert res.returncode == 1 and "already exists" in res.stderr


def test_a_rating_repeating_one_in_the_suites_own_files_needs_correction(project, tmp_path):
    """ana rated q2 / model_b's correctness 0 in suites/example_qa/ratings.csv (its 11th data row). Importing her 2
    for it is a duplicate as much as one of the ratings store (a trial found it accepted, and then counting); with
    --correction it is written. Another rater's rating of the same reply is no duplicate."""
    dst, run = project
    from evalhouse.suites.land import landing_is_current, suites_fingerprint

    # the suite files are compared as last landed, while that landing is current (a stale build of the project
    # copied here, older than the code: run `make build` first)
    assert landing_is_current(suites_fingerprint(dst / "suites"), dst / "warehouse/build/landing")
    store = dst / "data/ratings/example_qa"
    before = sorted(p.name for p in store.iterdir()) if store.is_dir() else []

    def zoe_and_ana(name, zoe_score):
        """zoe's rating of q1 / model_b (new) and ana's 2 for q2 / model_b (a duplicate of her suite rating)"""
        rows = [("q1", "zoe", zoe_score), ("q2", "ana", "2")]
        return write_rows(tmp_path / name, [
            {"suite": "example_qa", "item_id": item, "system_id": "model_b", "rater_id": rater,
             "criterion": "correctness", "score": score} for item, rater, score in rows])

    again = zoe_and_ana("again.csv", "1")
    res = run("evalhouse", "import-ratings", str(again), check=False)
    assert res.returncode == 1, res.stdout + res.stderr
    assert (f"{again}:3:criterion: duplicate rating: already in the suite's own ratings at "
            "suites/example_qa/ratings.csv row 11 (to correct it, import with --correction)") in res.stderr, res.stderr
    assert f"{again}:2:" not in res.stderr, res.stderr  # zoe's row is fine
    # reported with the file's other problems, not only once they are fixed
    both = zoe_and_ana("both.csv", "9")
    res = run("evalhouse", "import-ratings", str(both), check=False)
    assert res.returncode == 1 and f"{both}:2:score: 9 is outside correctness's scale 0-2" in res.stderr, res.stderr
    assert f"{both}:3:criterion: duplicate rating: already in the suite's own ratings at " in res.stderr, res.stderr
    assert (sorted(p.name for p in store.iterdir()) if store.is_dir() else []) == before
    res = run("evalhouse", "import-ratings", str(again), "--correction")
    assert "imported 2 ratings" in res.stdout, res.stdout
    # the correction counts in the reliability marts as everywhere else: ana's latest 2, not the mean 1.0 of her 0
    # and her 2 (a trial found the mean in int_reliability_units, fct_interrater_reliability and the judge marts)
    run("evalhouse", "build", "--quiet", "--indirect-selection", "cautious", "--select", "+int_reliability_units",
        "+fct_criterion_scores")
    with duckdb.connect(str(dst / "warehouse/build/evalhouse.duckdb"), read_only=True) as con:
        scores = con.execute(
            "select rater_id, score_value, n_scores, n_excluded from int_reliability_scores "
            "where response_id = 'example_qa:model_b:q2:1' and criterion = 'correctness' order by rater_id").fetchall()
        units = con.execute(
            "select human_scores from int_reliability_units "
            "where response_id = 'example_qa:model_b:q2:1' and criterion = 'correctness'").fetchone()[0]
        counted = con.execute(
            "select score from fct_criterion_scores where response_id = 'example_qa:model_b:q2:1' "
            "and criterion = 'correctness' and rater_id = 'ana'").fetchone()[0]
    assert scores == [("ana", 2.0, 1, 0), ("ben", 0.0, 1, 0)]
    assert units == [{"rater_id": "ana", "score_value": 2.0}, {"rater_id": "ben", "score_value": 0.0}]
    assert counted == 2
