"""A `--correction` of one of the course team's bundled Larkfield lesson ratings builds and publishes: the lesson's
singular tests (tests/larkfield/) pin the figures of the bundled ratings and hold only while course_team's ratings
are those (macro larkfield_lesson_ratings_unchanged); before, the corrected figure failed the build."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import duckdb
from conftest import copy_project

BIN = Path(sys.executable).parent
U03_GEMMA = "larkfield-U03-2e3f70ab4524-r1"  # format 2 under v2 in the lesson (the code fence is no longer a breach)


def test_a_correction_of_a_lesson_rating_builds_and_shows_the_new_score(tmp_path):
    dst = copy_project(tmp_path / "evalhouse", built=True)
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst))
    for name in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(name, None)

    def run(*args):
        return subprocess.run([str(BIN / "evalhouse"), *args], cwd=dst, env=env, capture_output=True, text=True)

    fix = tmp_path / "fix.csv"
    fix.write_text("response_id,criterion,score,rubric_id,rubric_version,reason\n"
                   f"{U03_GEMMA},format_compliance,1,larkfield_support,2,second look: the fence hides a typo\n")
    plain = run("import-ratings", str(fix), "--rater", "course_team")
    assert plain.returncode == 1 and "--correction" in plain.stderr  # a re-rating needs --correction
    res = run("import-ratings", str(fix), "--rater", "course_team", "--correction")
    assert res.returncode == 0, res.stderr
    res = run("build")
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    con = duckdb.connect(str(dst / "warehouse" / "evalhouse.duckdb"), read_only=True)
    got = con.execute("select format_compliance, total, ready from fct_larkfield_reply_scores "
                      "where response_id = ? and rater_id = 'course_team' and rubric_version = 2",
                      [U03_GEMMA]).fetchall()
    # the lesson's figure was format 2 / total 8 (tests/larkfield/assert_code_fence_rescore.sql): it has changed, so
    # that test would fail the build without its condition
    assert got == [(1, 7, True)]
    n = con.execute("select count(*) from fct_ratings where response_id = ? and rater_id = 'course_team' "
                    "and criterion = 'format_compliance' and rubric_version = 2", [U03_GEMMA]).fetchone()[0]
    assert n == 2  # the lesson's rating stays beside the correction
    con.close()


def test_the_lesson_tests_are_on_for_the_bundled_ratings(warehouse):
    """The condition holds on the bundled build, so the three lesson tests check their figures there: a renamed
    lesson file would otherwise switch them off without a word."""
    from conftest import compile_inline

    res = compile_inline("select {{ larkfield_lesson_ratings_unchanged() }} as lesson_ratings_unchanged")
    assert res.returncode == 0, res.stderr
    assert warehouse.execute(res.stdout).fetchone() == (True,)
    files = {f for (f,) in warehouse.execute(
        "select distinct source_file from fct_ratings where suite = 'larkfield' and rater_id = 'course_team'").fetchall()}
    assert len(files) == 3 and all(f"'{f}'" in res.stdout for f in files)
