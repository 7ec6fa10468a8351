"""Adding a rubric version as suites/README.md says ("Adding a rubric version"), in a temporary copy of the project:
append a v3 to suites/larkfield/suite.yml that replaces one completeness anchor, then the steps of `make build`
(`evalhouse build`: suite land, dbt build with every model and test, publish) pass; exactly the ratings of the criterion v3 changes are
flagged stale, and the v2 rescores of the criterion v3 leaves unchanged are carried forward (not reset to pending)."""
from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

PROJECT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
SEEDS = PROJECT / "seeds"
V3_COMPLETENESS_1 = "One needed point missing (a next step the policy gives counts as a point)"


def test_committed_seed_files_use_lf_line_ends():
    # DuckDB's CSV sniffer rejects a file that mixes CRLF and LF: a row appended by an ordinary editor must load.
    crlf = [str(f.relative_to(PROJECT)) for f in sorted(SEEDS.rglob("*.csv")) if b"\r" in f.read_bytes()]
    assert crlf == []
    attributes = (PROJECT / ".gitattributes").read_text(encoding="utf-8")
    assert "seeds/**/*.csv text eol=lf" in attributes


@pytest.fixture(scope="module")
def v3(tmp_path_factory):
    dst = tmp_path_factory.mktemp("rubric_v3") / "evalhouse"
    shutil.copytree(PROJECT, dst, ignore=shutil.ignore_patterns(
        ".venv*", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "*.egg-info"))
    suite_yml = dst / "suites" / "larkfield" / "suite.yml"
    suite = yaml.safe_load(suite_yml.read_text(encoding="utf-8"))
    (rubric,) = suite["rubrics"]
    completeness = copy.deepcopy(next(c for c in rubric["criteria"] if c["criterion"] == "completeness"))
    level_1 = next(lv for lv in completeness["levels"] if lv["level"] == 1)
    level_1["anchor"] = V3_COMPLETENESS_1
    rubric["versions"].append({"version": 3, "effective_from": "2026-03-02",
                               "change_note": "A next step the policy gives counts as a needed point",
                               "criteria": [completeness]})
    suite_yml.write_text(yaml.safe_dump(suite, sort_keys=False, allow_unicode=True), encoding="utf-8")
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    for k in ("EVALHOUSE_DB", "EVALHOUSE_PUBLISHED_DB", "EVALHOUSE_LANDING_DIR"):
        env.pop(k, None)
    # what `make build` runs: check and land the suites, dbt build (every model and test), publish
    res = subprocess.run([str(BIN / "evalhouse"), "build"], cwd=dst, env=env, capture_output=True, text=True,
                         timeout=1800)
    assert res.returncode == 0, f"evalhouse build failed:\n{res.stdout[-4000:]}\n{res.stderr[-3000:]}"
    con = duckdb.connect(str(dst / "warehouse" / "evalhouse.duckdb"), read_only=True)
    yield con
    con.close()


def test_v3_changes_only_completeness(v3):
    changed = v3.execute("""select rubric_version, criterion from int_rubric_criteria
                            where rubric_id = 'larkfield_support' and anchors_changed_in_version
                            order by 1, 2""").fetchall()
    assert changed == [(2, "format_compliance"), (3, "completeness")]


def test_exactly_the_stale_ratings_are_flagged(v3):
    stale = {(r, c, v): (chg, st) for r, c, v, chg, st in v3.execute(
        """select response_id, criterion, rated_under_version, changed_in_version, rescore_status
           from fct_stale_ratings where suite = 'larkfield'""").fetchall()}
    ratings = v3.execute("""select response_id, criterion, rubric_version from fct_ratings
                            where suite = 'larkfield' and rater_id = 'course_team'""").fetchall()
    # stale: every v1 rating of format_compliance (v2 changed it) and every v1 rating of completeness (v3 changed
    # it); not the v2 format rescores (v3 left format unchanged) nor correctness / abstention
    expected = {(r, c, v) for r, c, v in ratings
                if (c == "format_compliance" and v == 1) or (c == "completeness" and v < 3)}
    # 15 format scores (the reference table) + 17 completeness scores (the reference table and the two replies
    # of Larkfield's "a person reads it" figure, scored on correctness and completeness only)
    assert len(expected) == 15 + 17 and set(stale) == expected
    assert {chg for (r, c, v), (chg, st) in stale.items() if c == "completeness"} == {3}
    assert {st for (r, c, v), (chg, st) in stale.items() if c == "completeness"} == {"pending"}


def test_v2_rescores_are_carried_forward_under_v3(v3):
    rows = v3.execute("""select item_id, old_score, current_score, rescored_under_version, rescore_status
                         from fct_stale_ratings
                         where system_id = 'Gemma 3 4B (local)' and criterion = 'format_compliance'
                         order by item_id""").fetchall()
    assert rows == [("M01", 1, 1, 2, "rescored_same"), ("S07", 1, 2, 2, "rescored_changed"),
                    ("U03", 1, 2, 2, "rescored_changed")]
    current = v3.execute("select max(current_version) from fct_stale_ratings").fetchone()[0]
    assert current == 3
