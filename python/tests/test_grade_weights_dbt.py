"""Weights validation runs as a dbt test and fails `dbt build` naming the task:
a task whose weights sum to 0.999 is rejected; 1 - 5e-7 passes (|sum - 1| <= 1e-6).

Runs dbt on a temporary pack folder (--vars grade_packs_dir) into a temporary DuckDB file and target folder, so
the project's own warehouse is not touched.
"""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DBT = Path(sys.executable).parent / "dbt"
PACK = ROOT / "data" / "grade" / "packs" / "edu_example"
WEIGHTS = ["grounding_accuracy", "insight_quality", "evidence_linkage", "calibration_limitation_handling",
           "consistency", "structure_usability"]


def _write_pack(packs: Path, tasks: dict[str, list[str]]) -> None:
    d = packs / "p1"
    d.mkdir(parents=True, exist_ok=True)
    shutil.copy(PACK / "pack.csv", d / "pack.csv")
    (d / "tasks.csv").write_text("pack_id,task_id,track,title,prompt\n" + "".join(
        f"p1,{t},1,{t},prompt\n" for t in tasks), encoding="utf-8")
    lines = ["pack_id,task_id,dimension,weight"]
    for t, ws in tasks.items():
        lines += [f"p1,{t},{dim},{w}" for dim, w in zip(WEIGHTS, ws)]
    (d / "task_weights.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _dbt_build(tmp: Path, packs: Path) -> subprocess.CompletedProcess:
    # same --vars and target path for both runs: the second run reuses dbt's partial parse (CSV data is not parsed)
    env = dict(os.environ, EVALHOUSE_DB=str(tmp / "weights.duckdb"), DBT_PROFILES_DIR=str(ROOT),
               EVALHOUSE_PROJECT_DIR=str(ROOT), DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    return subprocess.run(
        [str(DBT), "build", "--no-use-colors", "--select", "+int_grade__tasks", "--exclude", "resource_type:unit_test",
         "--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs"),
         "--vars", f"{{grade_packs_dir: '{packs}'}}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("grade_weights")
    packs = tmp / "packs"
    ok = ["0.45", "0.15", "0.15", "0.10", "0.10", "0.05"]
    almost = ["0.4499995", "0.15", "0.15", "0.10", "0.10", "0.05"]   # 1 - 5e-7
    short = ["0.449", "0.15", "0.15", "0.10", "0.10", "0.05"]        # 0.999
    _write_pack(packs, {"task_ok": ok, "task_almost_one": almost, "task_sum_0999": short})
    bad = _dbt_build(tmp, packs)
    _write_pack(packs, {"task_ok": ok, "task_almost_one": almost})
    good = _dbt_build(tmp, packs)
    return bad, good


def test_weights_summing_to_0999_fail_the_build_naming_the_task(runs):
    bad, _ = runs
    out = bad.stdout + bad.stderr
    assert bad.returncode != 0, out
    assert "GRADE rubric weights rejected before scoring: p1/task_sum_0999: weights sum to 0.999000000000" in out
    assert "task_almost_one" not in out.split("rejected before scoring")[1].split("\n")[0]
    assert "SKIP relation main.int_grade__tasks" in out  # scoring downstream does not run


def test_weights_within_1e6_pass(runs):
    _, good = runs
    assert good.returncode == 0, good.stdout + good.stderr
    assert "ERROR=0" in good.stdout and "PASS grade_weights_sum_to_one" in good.stdout
