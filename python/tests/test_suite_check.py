"""`evalhouse suite check`: the shipped suites pass; each kind of broken folder is one file:row:column error."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from evalhouse.suites.check import check_suite, suite_notes
from evalhouse.suites.land import check_all, land
from evalhouse.suites.scaffold import init_suite

PROJECT = Path(__file__).resolve().parents[2]
EXAMPLE = PROJECT / "suites" / "example_qa"


def test_every_shipped_suite_passes():
    suites, problems = check_all(PROJECT / "suites")
    assert [str(p) for p in problems] == []
    assert {"larkfield", "example_qa", "hanna", "grade_tatqa", "grade_gsm8k", "grade"} <= {s.name for s in suites}


@pytest.fixture
def suite(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dst = tmp_path / "suites" / "team_qa"
    shutil.copytree(EXAMPLE, dst)
    return dst


def messages(folder: Path) -> list[str]:
    _, problems = check_suite(folder)
    return [str(p) for p in problems]


def edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def test_the_copied_example_is_clean(suite):
    assert messages(suite) == []


def test_missing_column(suite):
    f = suite / "ratings.csv"
    lines = f.read_text().splitlines()
    f.write_text("\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != 3) for line in lines) + "\n")
    assert messages(suite) == ["suites/team_qa/ratings.csv:1:criterion: missing required column 'criterion'"]


def test_a_missing_key_column_is_one_problem_not_an_echo_on_every_row(suite):
    # without system_id every response looked like a second one of system '', and every rating of one lost (trial)
    f = suite / "responses.csv"
    lines = f.read_text().splitlines()
    assert lines[0].split(",")[1] == "system_id"
    f.write_text("\n".join(",".join(c for i, c in enumerate(line.split(",")) if i != 1) for line in lines) + "\n")
    assert messages(suite) == ["suites/team_qa/responses.csv:1:system_id: missing required column 'system_id'"]


def test_wrong_type(suite):
    edit(suite / "ratings.csv", "q2,model_a,ana,correctness,2,", "q2,model_a,ana,correctness,two,")
    assert messages(suite) == ["suites/team_qa/ratings.csv:4:score: score is not a decimal: 'two'"]


def test_impossible_timestamps_are_problems_not_a_landing_crash(suite, tmp_path):
    # the pattern's form, but no such time (or a year outside 1678-2261): the check names them, nothing lands
    text = (suite / "ratings.csv").read_text(encoding="utf-8").splitlines()
    stamps = ["2026-13-45", "2026-02-30", "2026-12-01 25:00:00", "0001-01-01", "9999-12-31T23:59:59Z",
              "2026-12-01T10:00:00+01:00"]
    rows = [text[0] + ",rated_at"] + [line + "," + (stamps[i] if i < len(stamps) else "") for i, line in
                                     enumerate(text[1:])]
    (suite / "ratings.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    reason = "(no such date or time, or a year outside 1678-2261)"
    assert messages(suite) == [f"suites/team_qa/ratings.csv:{i + 2}:rated_at: rated_at is not a timestamp: {s!r} "
                               f"{reason}" for i, s in enumerate(stamps[:5])]
    # the last, valid one with an offset lands as UTC; a suite with only valid stamps lands without error
    edit(suite / "ratings.csv", ",2026-13-45", ",2026-01-31")
    for s in stamps[1:5]:
        edit(suite / "ratings.csv", "," + s, ",")
    suites, problems = check_all(suite.parent)
    assert problems == []
    land(suites, tmp_path / "landing")
    import duckdb
    got = duckdb.sql(f"select source_row, rated_at from '{tmp_path / 'landing' / 'ratings.parquet'}' "
                     "where rated_at is not null order by source_row").fetchall()
    # source_row counts data rows (1 = the first after the header): the lines 2 and 7 the problems named
    assert got == [(1, "2026-01-31 00:00:00.000000"), (6, "2026-12-01 09:00:00.000000")]


def test_source_row_counts_records_and_problems_name_lines(suite, tmp_path):
    """A quoted reason over two lines: the problems name the line a record starts on, source_row the record's
    number among the file's data rows, as the ratings store, the judge calls and the decisions' CSVs do."""
    import pyarrow.parquet as pq

    edit(suite / "ratings.csv", "q1,model_a,ana,correctness,2,", 'q1,model_a,ana,correctness,2,"two\nlines"')
    edit(suite / "ratings.csv", "q2,model_a,ana,correctness,2,", "q2,model_a,ana,correctness,two,")
    assert messages(suite) == ["suites/team_qa/ratings.csv:5:score: score is not a decimal: 'two'"]
    edit(suite / "ratings.csv", "q2,model_a,ana,correctness,two,", "q2,model_a,ana,correctness,2,")
    suites, problems = check_all(suite.parent, ["team_qa"])
    assert problems == []
    land(suites, tmp_path / "landing")
    got = pq.read_table(tmp_path / "landing" / "ratings.parquet").to_pydict()
    n = len(got["source_row"])
    assert got["source_row"] == list(range(1, n + 1)) and n == len((suite / "ratings.csv").read_text().splitlines()) - 2
    assert got["reason"][got["source_row"].index(1)] == "two\nlines"


def test_duplicated_key(suite):
    with open(suite / "items.csv", "a") as fh:
        fh.write("q1,Capital of France?,Paris,en,geography\n")
    got = messages(suite)
    assert got == ["suites/team_qa/items.csv:6:item_id: duplicate key (item_id): 'q1' (first at suites/team_qa/items.csv:2)"]


def test_rating_of_an_unknown_item(suite):
    with open(suite / "ratings.csv", "a") as fh:
        fh.write("q9,model_a,ana,correctness,1,\n")
    assert messages(suite) == ["suites/team_qa/ratings.csv:34:system_id: no response of system 'model_a' to item "
                               "'q9' (repetition 1)"]


def test_response_of_an_unknown_item(suite):
    with open(suite / "responses.csv", "a") as fh:
        fh.write("q7,model_a,Seven.\n")
    assert messages(suite) == ["suites/team_qa/responses.csv:10:item_id: unknown item 'q7' (not in items)"]


def test_rubric_level_outside_the_scale(suite):
    edit(suite / "suite.yml", "- {level: 2, anchor: Two or more unsupported claims}",
         "- {level: 3, anchor: Two or more unsupported claims}")
    assert messages(suite) == ["suites/team_qa/suite.yml:29:level: unsupported_claims: level 3 is outside the "
                               "scale 0-2"]


def test_criterion_without_direction(suite):
    edit(suite / "suite.yml", "        direction: lower\n", "")
    assert messages(suite) == ["suites/team_qa/suite.yml:21:rubrics.0.criteria.1: missing required field "
                               "'direction' (higher or lower: which end of the scale is better)"]


def test_score_outside_the_scale_and_unknown_criterion(suite):
    edit(suite / "ratings.csv", "q2,model_a,ana,correctness,2,", "q2,model_a,ana,correctness,3,")
    edit(suite / "ratings.csv", "q2,model_a,ana,unsupported_claims,0,", "q2,model_a,ana,tone,0,")
    assert messages(suite) == [
        "suites/team_qa/ratings.csv:4:score: correctness: score 3 is not a whole level within 0-2",
        "suites/team_qa/ratings.csv:5:criterion: unknown criterion 'tone' in rubric 'example_qa_quality' v1",
    ]


def test_judge_scores_are_kept_as_recorded_but_a_person_must_give_a_level(suite):
    # A judge's mean of sampled answers (1.5) and a failure code (-1) are what the judge recorded: accepted here,
    # flagged by int_ratings (not_a_whole_level / out_of_range). The same values from a person are errors.
    with open(suite / "ratings.csv", "a") as fh:
        fh.write("q1,model_a,judge:m,correctness,1.5,\nq2,model_a,judge:m,correctness,-1,\n")
        fh.write("q1,model_a,bo,correctness,1.5,\n")
    edit(suite / "ratings.csv", "item_id,system_id,rater_id,criterion,score,reason",
         "item_id,system_id,rater_id,criterion,score,reason,rater_kind")
    text = (suite / "ratings.csv").read_text(encoding="utf-8").splitlines()
    kinds = ["judge" if ",judge:m," in line else "human" for line in text[1:]]
    (suite / "ratings.csv").write_text("\n".join([text[0]] + [f"{line},{k}" for line, k in zip(text[1:], kinds)])
                                       + "\n", encoding="utf-8")
    n = len(text)
    assert messages(suite) == [f"suites/team_qa/ratings.csv:{n}:score: correctness: score 1.5 is not a whole level "
                               "within 0-2"]


def test_a_rater_has_one_kind_in_a_suite(suite):
    """cy is human (the column's default) in one file; as a judge in the next file she is refused on each such
    row, naming where her first kind is; raters with one kind throughout (ana, ben, judge:m) are fine."""
    (suite / "ratings").mkdir()
    (suite / "ratings.csv").rename(suite / "ratings" / "a.csv")
    (suite / "ratings" / "b.csv").write_text(
        "item_id,system_id,rater_id,criterion,score\nq1,model_a,cy,correctness,2\n", encoding="utf-8")
    (suite / "ratings" / "c.csv").write_text(
        "item_id,system_id,rater_id,criterion,score,rater_kind\n"
        "q1,model_b,cy,correctness,2,judge\nq1,model_b,judge:m,correctness,2,judge\n"
        "q2,model_b,cy,correctness,1,judge\n", encoding="utf-8")
    why = ("rater 'cy' is 'judge' here and 'human' at suites/team_qa/ratings/b.csv:2; a rater has one kind in a "
           "suite (give these ratings another rater id)")
    assert messages(suite) == [f"suites/team_qa/ratings/c.csv:2:rater_kind: {why}",
                               f"suites/team_qa/ratings/c.csv:4:rater_kind: {why}"]
    edit(suite / "ratings" / "c.csv", "cy", "cy-judge", 2)
    assert messages(suite) == []


def test_a_rater_kind_in_the_suite_files_and_in_the_ratings_store(suite, tmp_path, monkeypatch):
    """The store (append-only) gave ben the kind judge; the suite's files give him human (the default): each such
    suite row is refused, naming the store row, so the suite file is changed rather than the build failing at
    assert_one_kind_per_rater. An empty kind in the store is human (ana there agrees with her suite rows); a rater
    the store has under another suite is not compared."""
    monkeypatch.setenv("EVALHOUSE_PROJECT_DIR", str(tmp_path))
    store = tmp_path / "data" / "ratings"
    (store / "team_qa").mkdir(parents=True)
    (store / "other").mkdir()
    (store / "team_qa" / "20260101T000000Z_x.csv").write_text(
        "suite,response_id,rater_id,rater_kind,criterion,score\nteam_qa,r1,ana,,correctness,1\n"
        "team_qa,r1,ben,judge,correctness,1\n", encoding="utf-8")
    (store / "other" / "20260101T000000Z_y.csv").write_text(
        "suite,response_id,rater_id,rater_kind,criterion,score\nother,r9,ana,judge,correctness,1\n", encoding="utf-8")
    ben_rows = [i + 1 for i, line in enumerate((suite / "ratings.csv").read_text().splitlines()) if ",ben," in line]
    assert ben_rows
    _, problems = check_all(suite.parent, ["team_qa"])
    why = ("rater 'ben' is 'human' here and 'judge' in the ratings store at "
           "data/ratings/team_qa/20260101T000000Z_x.csv:3; a rater has one kind in a suite (give these ratings "
           "another rater id: the store is append-only)")
    assert [str(p) for p in problems] == [f"suites/team_qa/ratings.csv:{n}:rater_kind: {why}" for n in ben_rows]
    edit(suite / "ratings.csv", ",ben,", ",ben-reader,", len(ben_rows))
    assert check_all(suite.parent, ["team_qa"])[1] == []


def test_rater_kinds_of_a_csv_by_arrow_equal_the_full_reader(tmp_path):
    """rater_kinds reads a CSV's two columns with Arrow's reader (fast on a large file) and falls back to the full
    reader where Arrow would read it otherwise; both give the same pairs, values as they land (not trimmed, an
    empty kind human), and nothing for a file the full reader rejects."""
    from evalhouse.suites import check

    cases = {
        "bom.csv": "\ufeffresponse_id,rater_id,rater_kind\r\nx,a,judge\r\n",
        "quoted.csv": 'response_id,rater_id,rater_kind,reason\nx,"b, c",,"two\nlines"\ny, d ,human,\n,,,\n',
        "wrong_fields.csv": "response_id,rater_id\nx,a,extra\n",
        "blank_lines.csv": "response_id,rater_id,rater_kind\nx,a,judge\n   \n,,\n \t,\ny,b,\n \n",
        "no_rater.csv": "response_id,rater_kind\nx,judge\n",
    }
    got = {}
    for name, text in cases.items():
        (tmp_path / name).write_text(text, encoding="utf-8", newline="")
        fast = check._csv_rater_columns(tmp_path / name)
        got[name] = (None if fast is None else check._rater_kind_pairs_of(fast), check._rater_kind_pairs(tmp_path / name))
    assert got == {"bom.csv": ([("a", "judge")], [("a", "judge")]),
                   "quoted.csv": ([(" d ", "human"), ("b, c", "human")], [(" d ", "human"), ("b, c", "human")]),
                   "wrong_fields.csv": (None, []), "no_rater.csv": (None, []),
                   "blank_lines.csv": ([("a", "judge"), ("b", "human")], [("a", "judge"), ("b", "human")])}
    (tmp_path / "latin1.csv").write_bytes("response_id,rater_id\nx,caf\xe9\n".encode("latin-1"))
    assert check._csv_rater_columns(tmp_path / "latin1.csv") is None and check._rater_kind_pairs(
        tmp_path / "latin1.csv") == []


RULES_YML = ("first_filter: false\ngrounding: true\nanswer_rules:\n"
             "  numeric_fact: [house_exact, house_tolerance]\n"
             "  string_fact:\n    - house_exact\n    - {rule}\n")


def test_declared_answer_rules_check_clean(suite):
    edit(suite / "suite.yml", "first_filter: false\n", RULES_YML.format(rule="tatqa_official_em"))
    assert messages(suite) == []


def test_unknown_answer_rule_names_file_line_field(suite):
    edit(suite / "suite.yml", "first_filter: false\n", RULES_YML.format(rule="gsm8k_magic"))
    assert messages(suite) == [
        "suites/team_qa/suite.yml:13:answer_rules.string_fact: unknown answer rule 'gsm8k_magic' (known: "
        "house_exact, house_tolerance, tatqa_official_em, tatqa_official_f1, faithful_cot_gsm8k)"]


def test_answer_rule_not_for_the_gold_kind_names_file_line_field(suite):
    edit(suite / "suite.yml", "first_filter: false\n", RULES_YML.format(rule="faithful_cot_gsm8k"))
    edit(suite / "suite.yml", "numeric_fact: [house_exact, house_tolerance]",
         "numeric_fact: [house_exact, house_tolerance]\n  span_list_fact: [tatqa_official_f1, house_tolerance]")
    assert messages(suite) == [
        "suites/team_qa/suite.yml:11:answer_rules.span_list_fact: answer rule 'house_tolerance' does not apply to "
        "gold kind span_list_fact (it applies to numeric_fact, string_fact)",
        "suites/team_qa/suite.yml:14:answer_rules.string_fact: answer rule 'faithful_cot_gsm8k' does not apply to "
        "gold kind string_fact (it applies to numeric_fact)"]


def test_answer_rules_need_grounding_and_a_fact_kind(suite):
    edit(suite / "suite.yml", "first_filter: false\n",
         "answer_rules:\n  label: [house_exact]\n")
    assert messages(suite) == [
        "suites/team_qa/suite.yml:7:answer_rules: answer_rules need grounding: true (the suite's facts are scored "
        "by them)",
        "suites/team_qa/suite.yml:8:answer_rules.label: unknown gold kind 'label': answer rules score numeric_fact, "
        "string_fact, span_list_fact"]


def test_parquet_keeps_an_empty_reply_apart_from_a_missing_one(suite, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    (suite / "responses.csv").unlink()
    (suite / "ratings.csv").unlink()
    pq.write_table(pa.table({"item_id": ["q1", "q2"], "system_id": ["m", "m"], "response_text": ["", None]}),
                   suite / "responses.parquet")
    suites, problems = check_all(suite.parent, ["team_qa"])
    assert problems == []
    land(suites, tmp_path / "landing")
    got = pq.read_table(tmp_path / "landing" / "responses.parquet").to_pydict()
    assert dict(zip(got["item_id"], got["response_text"])) == {"q1": "", "q2": None}


def test_landing_normalises_typed_parquet_values(suite, tmp_path):
    """Typed Parquet columns land as text the way a CSV's would; booleans as true / false, timestamps as UTC
    'YYYY-MM-DD HH:MM:SS.ffffff', integers and decimals stripped; a kept empty reason is '', a missing one NULL;
    source_row is the 1-based Parquet row."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    (suite / "ratings.csv").unlink()
    rid = "team_qa:model_a:q1:1"
    pq.write_table(pa.table({
        "response_id": [rid, rid, rid, rid],
        "rater_id": ["ana", "ana", "ben", "judge_x"],
        "rater_kind": ["human", "human", None, "judge"],
        "criterion": ["correctness", "unsupported_claims", "correctness", "correctness"],
        "score": pa.array([2.0, 0.0, 1.0, 1.5]),
        "rubric_version": pa.array([1, 1, None, 1], pa.int32()),
        "is_blind": pa.array([True, False, None, True]),
        "reported_ready": [" TRUE ", "0", "", None],
        "reported_total": [" 7 ", "+3", None, ""],
        "rated_at": ["2026-01-02T03:04:05+02:00", "2026-01-02 03:04:05.5Z", "2026-01-02", None],
        "reason": ["fine", "", None, " "],
    }), suite / "ratings.parquet")
    suites, problems = check_all(suite.parent, ["team_qa"])
    assert problems == []
    land(suites, tmp_path / "landing")
    got = pq.read_table(tmp_path / "landing" / "ratings.parquet")
    assert got.schema.field("source_row").type == pa.int64() and got.schema.field("score").type == pa.string()
    got = got.to_pydict()
    assert got["source_row"] == [1, 2, 3, 4]
    assert got["source_file"] == ["suites/team_qa/ratings.parquet"] * 4
    assert got["rater_kind"] == ["human", "human", "human", "judge"]
    assert got["score"] == ["2.0", "0.0", "1.0", "1.5"]
    assert got["rubric_version"] == ["1", "1", "1", "1"]
    assert got["is_blind"] == ["true", "false", None, "true"]
    assert got["reported_ready"] == ["true", "false", None, None]
    assert got["reported_total"] == ["7", "+3", None, None]
    assert got["rated_at"] == ["2026-01-02 01:04:05.000000", "2026-01-02 03:04:05.500000",
                               "2026-01-02 00:00:00.000000", None]
    assert got["reason"] == ["fine", "", None, " "]
    assert got["judge_model"] == [None] * 4 and got["suite"] == ["team_qa"] * 4


def test_bad_yaml_names_the_line(suite):
    edit(suite / "suite.yml", "title: Example QA", "title: [Example QA")
    got = messages(suite)
    assert len(got) == 1 and got[0].startswith("suites/team_qa/suite.yml:") and "not valid YAML" in got[0]


@pytest.mark.parametrize("written", ["2026-02-30", '"2026-13-01"', "2026-11-02 10:00:00", '"20261102"'])
def test_an_effective_from_that_is_no_date_names_its_line(suite, written):
    # 2026-02-30 unquoted was a traceback of the YAML reader (check and build); "2026-13-01" passed the check and
    # failed the build in dbt's cast, naming no file (trial)
    edit(suite / "suite.yml", 'effective_from: "2026-11-02"', f"effective_from: {written}")
    shown = written.strip('"')
    assert messages(suite) == [f"suites/team_qa/suite.yml:31:rubrics.0.versions.0.effective_from: {shown!r} is not a "
                               "date (YYYY-MM-DD, a day that exists)"]
    from evalhouse.suites.land import suites_fingerprint

    assert len(suites_fingerprint(suite.parent)) == 64  # `make build` reads every suite.yml for it, before the check
    _, problems = check_all(suite.parent)
    assert [p.column for p in problems] == ["rubrics.0.versions.0.effective_from"]


def test_an_unquoted_date_is_read_as_the_text_written(suite):
    edit(suite / "suite.yml", 'effective_from: "2026-11-02"', "effective_from: 2026-11-02")
    data, problems = check_suite(suite)
    assert problems == [] and data.spec["rubrics"][0]["versions"][0]["effective_from"] == "2026-11-02"


def test_jsonl_and_parquet_files_read_like_csv(suite):
    import pandas as pd

    items = pd.read_csv(suite / "items.csv", dtype=str)
    (suite / "items.csv").unlink()
    items.to_json(suite / "items.jsonl", orient="records", lines=True, force_ascii=False)
    responses = pd.read_csv(suite / "responses.csv", dtype=str)
    (suite / "responses.csv").unlink()
    responses.to_parquet(suite / "responses.parquet")
    data, problems = check_suite(suite)
    assert problems == []
    assert sorted(data.tables["responses"]["response_id"])[:2] == ["team_qa:model_a:q1:1", "team_qa:model_a:q2:1"]


def test_a_folder_of_files_per_table(suite):
    (suite / "ratings").mkdir()
    lines = (suite / "ratings.csv").read_text().splitlines()
    (suite / "ratings" / "ana.csv").write_text("\n".join([lines[0]] + [x for x in lines[1:] if ",ana," in x]) + "\n")
    (suite / "ratings" / "ben.csv").write_text("\n".join([lines[0]] + [x for x in lines[1:] if ",ben," in x]) + "\n")
    (suite / "ratings.csv").unlink()
    data, problems = check_suite(suite)
    assert problems == [] and len(data.tables["ratings"]) == 32


def test_land_writes_every_table_even_empty(suite, tmp_path):
    suites, problems = check_all(suite.parent)
    assert problems == []
    counts = land(suites, tmp_path / "landing")
    assert counts == {"items": 4, "responses": 8, "response_labels": 0, "gold": 0, "ratings": 32, "comparisons": 0,
                      "suites": 1, "rubric_levels": 6, "rubric_versions": 1, "rubric_rules": 1,
                      "suite_systems": 0, "answer_rules": 0}
    assert sorted(p.name for p in (tmp_path / "landing").iterdir()) == sorted(f"{t}.parquet" for t in counts)


def test_init_scaffolds_a_folder_that_checks_clean(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = init_suite(tmp_path / "suites", "new_suite", "New suite")
    assert (folder / "README.md").read_text().count("| `item_id` |") >= 1
    assert messages(folder) == []
    with pytest.raises(ValueError):
        init_suite(tmp_path / "suites", "Bad-Name")
    with pytest.raises(FileExistsError):
        init_suite(tmp_path / "suites", "new_suite")


def test_notes_name_what_a_new_suite_still_lacks(tmp_path, monkeypatch):
    """A folder just made by `suite init` passes its check, with three notes: no data files, no licence, no
    attribution; a filled-in suite has none, and the shipped ones have none."""
    monkeypatch.chdir(tmp_path)
    folder = init_suite(tmp_path / "suites", "new_suite")
    data, problems = check_suite(folder)
    assert problems == []
    assert [str(n) for n in suite_notes(data)] == [
        "suites/new_suite:-:-: no data files yet (items, responses, response_labels, gold, ratings, comparisons): "
        "only its rubric lands, with nothing to score",
        "suites/new_suite/suite.yml:4:licence: licence is empty: say under which licence the data may be used and "
        "shared",
        "suites/new_suite/suite.yml:5:attribution: attribution is empty: say who made the data, and where it "
        "comes from"]
    edit(folder / "suite.yml", 'licence: ""', "licence: CC0-1.0")
    edit(folder / "suite.yml", 'attribution: ""', "attribution: our team")
    shutil.copy(EXAMPLE / "items.csv", folder / "items.csv")
    data, problems = check_suite(folder)
    assert problems == [] and suite_notes(data) == []
    shipped, _ = check_all(PROJECT / "suites")
    assert [str(n) for s in shipped for n in suite_notes(s)] == []


def test_landing_is_skipped_only_while_no_suite_file_changed(suite, tmp_path):
    from evalhouse.suites.land import landing_is_current, suites_fingerprint

    root, target = suite.parent, tmp_path / "landing"
    target.mkdir()
    before = suites_fingerprint(root)
    suites, problems = check_all(root)
    assert problems == []
    land(suites, target, fingerprint=before)
    assert landing_is_current(suites_fingerprint(root), target)
    edit(suite / "responses.csv", "Paris", "Lyon")  # one changed byte in one data file
    assert suites_fingerprint(root) != before and not landing_is_current(suites_fingerprint(root), target)
    edit(suite / "responses.csv", "Lyon", "Paris")
    assert landing_is_current(suites_fingerprint(root), target)
    (target / "gold.parquet").unlink()  # a landing file gone: land again
    assert not landing_is_current(suites_fingerprint(root), target)
    land(suites, target)  # a landing without a fingerprint (evalhouse suite land) is never taken as current
    assert not landing_is_current(before, target)


def test_new_files_limit_row_checks_but_keys_and_duplicates_span_every_file(suite):
    """An import checks the rows of its new files; keys, references and duplicate ratings span every file."""
    (suite / "ratings").mkdir()
    lines = (suite / "ratings.csv").read_text().splitlines()
    ana = [lines[0]] + [x.replace("q2,model_a,ana,correctness,2,", "q2,model_a,ana,correctness,two,")
                        for x in lines[1:] if ",ana," in x]
    (suite / "ratings" / "ana.csv").write_text("\n".join(ana) + "\n")
    (suite / "ratings.csv").unlink()
    new = suite / "ratings" / "ben.csv"
    new.write_text(lines[0] + "\nq1,model_a,ana,correctness,2,\nq1,model_a,ben,correctness,7,\n"
                   "q1,model_a,ben,correctness,x,\nq9,model_b,ben,correctness,1,\n")
    old_problem = "suites/team_qa/ratings/ana.csv:4:score: score is not a decimal: 'two'"
    new_problems = [
        "suites/team_qa/ratings/ben.csv:4:score: score is not a decimal: 'x'",
        "suites/team_qa/ratings/ben.csv:5:system_id: no response of system 'model_b' to item 'q9' (repetition 1)",
        "suites/team_qa/ratings/ben.csv:2:criterion: duplicate rating of 'team_qa:model_a:q1:1' by 'ana' on "
        "correctness (v1); first at suites/team_qa/ratings/ana.csv:2",
        "suites/team_qa/ratings/ben.csv:3:score: correctness: score 7 is not a whole level within 0-2",
    ]
    _, problems = check_suite(suite, new_files=[new])
    assert [str(p) for p in problems] == new_problems
    _, problems = check_suite(suite)
    assert sorted(str(p) for p in problems) == sorted(new_problems + [old_problem])


def test_a_rubric_id_of_another_suite_is_an_error(suite):
    other = suite.parent / "other_qa"
    shutil.copytree(EXAMPLE, other)  # response ids default to <suite>:..., so only the rubric collides
    _, problems = check_all(suite.parent)
    assert [str(p) for p in problems] == [
        "suites/team_qa/suite.yml:9:rubric_id: rubric_id 'example_qa_quality' is also used by suite 'other_qa'; "
        "rubric ids must be unique across suites"]


def test_a_response_id_of_another_suite_is_an_error_at_each_later_row(suite):
    ids = {"other_qa": {2: "shared-1", 3: "shared-2"}, "team_qa": {2: "shared-1"},
           "third_qa": {2: "shared-2", 3: "shared-1", 4: "own-1"}}
    for name, by_line in ids.items():
        folder = suite.parent / name
        if name != "team_qa":
            shutil.copytree(EXAMPLE, folder)
            edit(folder / "suite.yml", "example_qa_quality", f"{name}_quality")
        lines = (folder / "responses.csv").read_text().splitlines()
        (folder / "responses.csv").write_text("\n".join(
            ("response_id," if i == 1 else by_line.get(i, "") + ",") + line for i, line in enumerate(lines, 1)) + "\n")
    _, problems = check_all(suite.parent)
    # suites in name order (other_qa, team_qa, third_qa): the first suite to use an id owns it
    assert [str(p) for p in problems] == [
        "suites/team_qa/responses.csv:2:response_id: response_id 'shared-1' is also used by suite 'other_qa' "
        "(suites/other_qa/responses.csv:2); ids must be unique across suites",
        "suites/third_qa/responses.csv:2:response_id: response_id 'shared-2' is also used by suite 'other_qa' "
        "(suites/other_qa/responses.csv:3); ids must be unique across suites",
        "suites/third_qa/responses.csv:3:response_id: response_id 'shared-1' is also used by suite 'other_qa' "
        "(suites/other_qa/responses.csv:2); ids must be unique across suites"]


def test_an_unreadable_items_file_is_one_error_with_a_relative_path(suite):
    (suite / "items.csv").write_bytes(b"item_id,input_text\nq1,caf\xe9\n")
    assert messages(suite) == ["suites/team_qa/items.csv:2:-: not UTF-8 (invalid continuation byte at byte offset 25)"]


def test_a_broken_responses_file_is_reported_once_without_its_follow_on_errors(suite):
    (suite / "responses.csv").write_bytes(b"response_id,item_id,system_id,output_text\nr1,q1,model_a,\"unclosed\n")
    found = messages(suite)
    assert len(found) == 1 and found[0].startswith("suites/team_qa/responses.csv:"), found


def test_ratings_of_missing_responses_are_not_duplicates_of_each_other(suite):
    with open(suite / "ratings.csv", "a") as fh:
        fh.write("q9,model_a,ana,correctness,2,\nq10,model_a,ana,correctness,1,\n")
    found = messages(suite)
    assert len(found) == 2 and all("no response of system 'model_a'" in m for m in found), found
    assert not any("duplicate" in m for m in found)


def test_an_unknown_suite_name_lists_the_suites(suite):
    _, problems = check_all(suite.parent, ["no_such_suite"])
    assert [str(p) for p in problems] == [
        "suites/no_such_suite:-:-: no suite 'no_such_suite' (no suites/no_such_suite/suite.yml; suites: team_qa)"]


def test_per_value_checks_name_every_row_holding_a_bad_value(suite):
    """Great Expectations judges each distinct value once; every row that holds a bad value is reported, in file
    order, whether the column has a few values or thousands."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    (suite / "ratings.csv").unlink()
    (suite / "responses.csv").unlink()
    n = 1500
    items = [f"q{i % 4 + 1}" for i in range(n)]
    rep = [str(i + 1) for i in range(n)]
    rep[2] = rep[1199] = "x"
    latency = [f"{i}.5" for i in range(n)]
    latency[4] = "abc"
    ref = ["false"] * n
    ref[9] = ref[19] = "maybe"
    pq.write_table(pa.table({"item_id": items, "system_id": ["m"] * n, "repetition": rep, "latency_ms": latency,
                             "is_reference_system": ref}), suite / "responses.parquet")
    f = "suites/team_qa/responses.parquet"
    assert messages(suite) == [f"{f}:3:repetition: repetition is not an integer: 'x'",
                               f"{f}:1200:repetition: repetition is not an integer: 'x'",
                               f"{f}:10:is_reference_system: is_reference_system is not a boolean: 'maybe'",
                               f"{f}:20:is_reference_system: is_reference_system is not a boolean: 'maybe'",
                               f"{f}:5:latency_ms: latency_ms is not a decimal: 'abc'"]


def test_a_table_file_in_another_format_is_reported_not_skipped(suite):
    (suite / "ratings.csv").rename(suite / "ratings.tsv")
    (suite / "notes.txt").write_text("the team's own notes are left alone\n")
    (suite / "comparisons").mkdir()
    (suite / "comparisons" / "round1.xlsx").write_bytes(b"PK")
    (suite / "comparisons" / ".DS_Store").write_bytes(b"")
    assert messages(suite) == [
        "suites/team_qa/comparisons/round1.xlsx:-:-: not read: the files of folder comparisons/ must be .csv, "
        ".jsonl or .parquet files",
        "suites/team_qa/ratings.tsv:-:-: not read: table ratings must be a .csv, .jsonl or .parquet file (or a "
        "folder ratings/ of them)"]


def test_an_upper_case_extension_is_read(suite):
    (suite / "ratings.csv").rename(suite / "ratings.CSV")
    data, problems = check_suite(suite)
    assert problems == [] and len(data.tables["ratings"]) == 32


def test_a_file_with_only_a_header_is_an_error(suite):
    header = (suite / "ratings.csv").read_text().splitlines()[0]
    (suite / "ratings").mkdir()
    (suite / "ratings" / "empty_import.csv").write_text(header + "\n")
    assert messages(suite) == ["suites/team_qa/ratings/empty_import.csv:-:-: no rows: the file of table ratings has no "
                               "data rows (remove it, or add its rows)"]
    # an empty file (no header either) is a problem of the whole file too, CSV or JSONL
    (suite / "ratings" / "empty_import.csv").write_text("")
    (suite / "ratings" / "blank.jsonl").write_text("\n")
    assert messages(suite) == ["suites/team_qa/ratings/blank.jsonl:-:-: the file is empty",
                               "suites/team_qa/ratings/empty_import.csv:-:-: the file is empty"]


def test_an_unclosed_quote_is_reported_on_the_row_that_opens_it(suite):
    lines = (suite / "responses.csv").read_text().splitlines()
    opened = lines[2] + ',"'  # a quote opened on line 3
    (suite / "responses.csv").write_text("\n".join(lines[:2] + [opened]) + "\n")  # ... that no later line closes
    assert messages(suite) == ["suites/team_qa/responses.csv:3:-: malformed CSV (a quote opened in this row is never "
                               "closed)"]
    # the next quoted field closes it: the parser stops on line 4, the row began on line 3
    (suite / "responses.csv").write_text("\n".join(lines[:2] + [opened] + lines[3:]) + "\n")
    assert messages(suite) == ["suites/team_qa/responses.csv:3:-: malformed CSV (',' expected after '\"', on line 4; "
                               "a quote opened in this row may be unclosed)"]


def test_problems_are_reported_file_by_file_from_the_top_down(suite):
    """`suite check` / `build` print each file's problems together, by row (a whole-file problem first), the files
    in the order the check found them; the check's order within a row is kept (trial: a duplicate key on line 9
    was printed before a bad score on line 3)."""
    from evalhouse.cli.suites import report
    from evalhouse.suites.check import Problem

    problems = [Problem("suites/a/ratings.csv", 9, "response_id", "duplicate key"),
                Problem("suites/a/suite.yml", 4, "title", "title is required"),
                Problem("suites/a/ratings.csv", 3, "score", "score is not a decimal"),
                Problem("suites/a/ratings.csv", 3, "criterion", "unknown criterion"),
                Problem("suites/a/ratings.csv", 0, "", "no rows")]
    lines: list[str] = []
    report(problems, echo=lines.append)
    assert lines == ["error: suites/a/ratings.csv:-:-: no rows",
                     "error: suites/a/ratings.csv:3:score: score is not a decimal",
                     "error: suites/a/ratings.csv:3:criterion: unknown criterion",
                     "error: suites/a/ratings.csv:9:response_id: duplicate key",
                     "error: suites/a/suite.yml:4:title: title is required"]
    # a real suite: the check finds a bad value (line 5) before a duplicate key (line 3); shown by line
    edit(suite / "ratings.csv", "q2,model_a,ana,correctness,2,", "q2,model_a,ana,correctness,two,")
    lines = (suite / "ratings.csv").read_text().splitlines()
    (suite / "ratings.csv").write_text("\n".join(lines[:2] + [lines[1]] + lines[2:]) + "\n")  # line 2 again
    _, found = check_suite(suite)
    assert [p.row for p in found] == [5, 3]
    shown: list[str] = []
    report(found, echo=shown.append)
    assert [int(line.split(":")[2]) for line in shown] == [3, 5]
