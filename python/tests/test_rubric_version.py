"""Adding a rubric version as the README says ("How to add a rubric version"), in a temporary copy of the project:
append v3 rows with ordinary LF line ends, `dbt build` (every model and test, as `make build`) passes, exactly the
ratings of the criterion v3 changes are flagged stale, and the v2 rescores of the criterion v3 leaves unchanged are
carried forward (not reset to pending)."""
from __future__ import annotations

import csv
import os
import shutil
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

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


def _append(path: Path, rows: list[list]) -> None:
    with open(path, "a", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows(rows)


@pytest.fixture(scope="module")
def v3(tmp_path_factory):
    dst = tmp_path_factory.mktemp("rubric_v3") / "evalhouse"
    shutil.copytree(PROJECT, dst, ignore=shutil.ignore_patterns(
        ".venv*", ".git", "warehouse", "target", "logs", "test-artifacts", "__pycache__", "*.egg-info"))
    seeds = dst / "seeds" / "larkfield"
    # v3 = v2 with one changed anchor: completeness level 1 (format_compliance and the others unchanged)
    with open(seeds / "larkfield_rubric_anchors.csv", encoding="utf-8", newline="") as fh:
        v2 = [r for r in csv.DictReader(fh) if r["rubric_version"] == "2"]
    assert len(v2) == 12
    _append(seeds / "larkfield_rubric_anchors.csv", [
        [r["rubric_id"], 3, r["criterion"], r["level"],
         V3_COMPLETENESS_1 if (r["criterion"], r["level"]) == ("completeness", "1") else r["anchor"]] for r in v2])
    _append(seeds / "larkfield_rubric_versions.csv", [
        ["larkfield_support", 3, "2026-03-02", "completeness", "A next step the policy gives counts as a needed point"]])
    env = dict(os.environ, EVALHOUSE_PROJECT_DIR=str(dst), DBT_PROFILES_DIR=str(dst),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    env.pop("EVALHOUSE_DB", None)
    env.pop("EVALHOUSE_PUBLISHED_DB", None)
    (dst / "warehouse" / "build").mkdir(parents=True)
    for cmd in (["dbt", "build", "--no-use-colors"], ["evalhouse", "publish"]):
        res = subprocess.run([str(BIN / cmd[0]), *cmd[1:]], cwd=dst, env=env, capture_output=True, text=True,
                             timeout=1800)
        assert res.returncode == 0, f"{cmd} failed:\n{res.stdout[-4000:]}\n{res.stderr[-3000:]}"
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
    # of the lesson's "a person reads it" figure, scored on correctness and completeness only)
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
