"""The suite `grade` reads GRADE packs (suite.yml pack_dir): the shipped pack converts to the suite tables with the
warehouse's ids, and each kind of broken pack is one `file:row:column: message` of `suite check`, in the pack's own
file, line and column names."""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from evalhouse.grade.packs import response_id
from evalhouse.suites.check import check_suite
from evalhouse.suites.land import suites_fingerprint

PROJECT = Path(__file__).resolve().parents[2]
PACKS = PROJECT / "data" / "grade" / "packs"
PACK = "data/grade/packs/edu_example"


@pytest.fixture
def suite(tmp_path, monkeypatch):
    """A copy of suites/grade and of its packs, laid out as in the project (pack_dir ../../data/grade/packs)."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(PROJECT / "suites" / "grade", tmp_path / "suites" / "grade")
    shutil.copytree(PACKS, tmp_path / "data" / "grade" / "packs")
    return tmp_path / "suites" / "grade"


def pack_dir_line(folder: Path) -> int:
    lines = (folder / "suite.yml").read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, start=1) if line.startswith("pack_dir:"))


def messages(folder: Path) -> list[str]:
    _, problems = check_suite(folder)
    return [str(p) for p in problems]


def set_line(path: Path, line: int, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` on the 1-based ``line`` of the file."""
    lines = path.read_text(encoding="utf-8").split("\n")
    assert old in lines[line - 1], lines[line - 1]
    lines[line - 1] = lines[line - 1].replace(old, new, 1)
    path.write_text("\n".join(lines), encoding="utf-8")


def test_the_shipped_pack_converts_with_the_warehouse_ids(suite):
    data, problems = check_suite(suite)
    assert [str(p) for p in problems] == []
    assert {t: len(df) for t, df in data.tables.items()} == {"items": 10, "responses": 150, "response_labels": 570,
                                                               "gold": 28, "ratings": 300}
    first = json.loads((suite.parents[1] / PACK / "responses.jsonl").read_text(encoding="utf-8").split("\n")[0])
    r = data.tables["responses"].iloc[0]
    md5 = hashlib.md5(first["model"].encode()).hexdigest()[:12]
    assert r["response_id"] == f"grade-{first['pack_id']}-{first['task_id']}-{md5}-r{first['run']}"
    assert (r["item_id"], r["system_id"], r["repetition"]) == (f"edu_example/{first['task_id']}", first["model"], "1")
    g = data.tables["ratings"].iloc[0]
    assert (g["rater_id"], g["rater_kind"], g["_file"], g["_row"], g["_source_row"]) == (
        "synthetic-judge-1@grade-judge-v1", "judge", f"{PACK}/judge_ratings.csv", 2, 1)
    assert set(data.tables["ratings"]["response_id"]) <= set(data.tables["responses"]["response_id"])


def test_a_score_that_is_not_a_number_names_the_pack_file_line_and_column(suite):
    set_line(suite.parents[1] / PACK / "judge_ratings.csv", 14, ",evidence_linkage,4,", ",evidence_linkage,four,")
    assert messages(suite) == [f"{PACK}/judge_ratings.csv:14:score: score is not a decimal: 'four'"]


def test_an_unknown_fact_kind(suite):
    set_line(suite.parents[1] / PACK / "gold_facts.csv", 5, ",string,", ",date,")
    assert messages(suite) == [f"{PACK}/gold_facts.csv:5:fact_kind: fact_kind must be numeric or string, not 'date'"]


def test_a_run_that_is_not_a_whole_number_and_a_list_that_is_not_a_list(suite):
    f = suite.parents[1] / PACK / "responses.jsonl"
    set_line(f, 3, '"run": 3,', '"run": "3.5",')
    set_line(f, 7, '"limitations": [', '"limitations": "none", "was": [')
    assert messages(suite) == [
        f"{PACK}/responses.jsonl:7:limitations: limitations must be a list of strings",
        f"{PACK}/responses.jsonl:3:run: run is not an integer: '3.5'",
        # the judge ratings of run 3 now name a response that is not there
        f"{PACK}/judge_ratings.csv:6:pack_id,task_id,model,run: unknown response "
        f"'{response_id('edu_example', 't1_october_volume', 'synthetic-strong', '3')}' (not in responses)",
        f"{PACK}/judge_ratings.csv:7:pack_id,task_id,model,run: unknown response "
        f"'{response_id('edu_example', 't1_october_volume', 'synthetic-strong', '3')}' (not in responses)",
    ]


def test_a_missing_id_part_and_a_missing_column(suite):
    set_line(suite.parents[1] / PACK / "judge_ratings.csv", 2, ",synthetic-judge-1,", ",,")
    tasks = suite.parents[1] / PACK / "tasks.csv"
    tasks.write_text(tasks.read_text(encoding="utf-8").replace("pack_id,task_id,track,title,prompt",
                                                               "pack_id,task,track,title,prompt", 1), encoding="utf-8")
    # a pack whose tasks cannot be read converts nothing else (its responses would all name unknown items)
    assert messages(suite) == [
        f"{PACK}/tasks.csv:1:task_id: missing required column 'task_id' (data/grade/PACK_FORMAT.md)",
        f"{PACK}/judge_ratings.csv:2:judge_model: judge_model is required",
    ]


def test_a_missing_pack_file_and_a_data_file_beside_pack_dir(suite):
    (suite.parents[1] / PACK / "judge_verdicts.csv").unlink()
    (suite / "items.csv").write_text("item_id\nq1\n", encoding="utf-8")
    assert messages(suite) == [
        f"suites/grade/items.csv:-:-: a suite with pack_dir takes its tables from the packs (suites/grade/suite.yml:"
        f"{pack_dir_line(suite)}); "
        "move this file into a pack or out of the suite",
        f"{PACK}/judge_verdicts.csv:-:-: missing pack file (every file of data/grade/PACK_FORMAT.md must exist; an "
        "empty file with its header row is fine)",
    ]


def test_an_empty_pack_csv_is_a_problem_before_dbt_reads_it(suite):
    """dbt reads every pack CSV by its header row: an empty file (no header; blanks or a BOM only) failed the build
    with a binder error in stg_grade__gold_insights after the check said OK. Now the check names it; a file with its
    header row and no rows stays fine."""
    pack = suite.parents[1] / PACK
    (pack / "gold_insights.csv").write_text("", encoding="utf-8")
    (pack / "judge_verdicts.csv").write_bytes(b"\xef\xbb\xbf \r\n")
    header = (pack / "forbidden_claims.csv").read_text(encoding="utf-8").splitlines()[0]
    (pack / "forbidden_claims.csv").write_text(header + "\n", encoding="utf-8")
    why = "the file is empty: a pack's CSV file needs at least its header row (data/grade/PACK_FORMAT.md)"
    assert messages(suite) == [f"{PACK}/gold_insights.csv:-:-: {why}", f"{PACK}/judge_verdicts.csv:-:-: {why}"]


def test_a_pack_dir_that_is_not_a_folder(suite):
    yml = suite / "suite.yml"
    yml.write_text(yml.read_text(encoding="utf-8").replace("pack_dir: ../../data/grade/packs", "pack_dir: ../packs"),
                   encoding="utf-8")
    assert messages(suite) == [f"suites/grade/suite.yml:{pack_dir_line(suite)}:pack_dir: pack_dir '../packs': no "
                               "folder suites/packs"]


def test_the_landing_fingerprint_covers_the_pack_folder(suite):
    before = suites_fingerprint(suite.parent)
    set_line(suite.parents[1] / PACK / "gold_facts.csv", 2, ",192,", ",193,")
    assert suites_fingerprint(suite.parent) != before


def test_pack_dir_and_the_dbt_var_name_the_same_folder():
    import yaml

    spec = yaml.safe_load((PROJECT / "suites" / "grade" / "suite.yml").read_text(encoding="utf-8"))
    var = yaml.safe_load((PROJECT / "dbt_project.yml").read_text(encoding="utf-8"))["vars"]["grade_packs_dir"]
    assert (PROJECT / "suites" / "grade" / spec["pack_dir"]).resolve() == (PROJECT / var).resolve() == PACKS
