"""The ratings store's file check (store.store_file_problems): dbt reads every data/ratings/<suite>/*.csv as one table,
so a file copied there by hand (a column the store does not have or named twice, a required column missing, an
empty file, bytes that are not UTF-8) or a ratings file where dbt does not read it stops `evalhouse build` before
anything is landed or built, naming the file, row and column."""
from __future__ import annotations

from pathlib import Path

from evalhouse import paths
from evalhouse.ratings.store import STORE_COLUMNS, store_file_problems

OLD_HEADER = "suite,response_id,packet_id,letter,rater_id,rater_kind,criterion,score,reason,rubric_id,rubric_version," \
             "is_blind,rated_at,store_row"  # a store file written before the judge and reported columns existed


def _bad_store(root: Path) -> Path:
    store = root / "data" / "ratings"
    (store / "_schema").mkdir(parents=True)
    (store / "_schema" / "000_header.csv").write_text(",".join(STORE_COLUMNS) + "\n")
    (store / "s1").mkdir()
    (root / "suites" / "s1").mkdir(parents=True)
    (root / "suites" / "s1" / "suite.yml").write_text("rubrics: {}\n")
    (store / "s1" / "a_old.csv").write_text(OLD_HEADER + "\ns1,r1,,,ann,human,c1,2,,rb,1,false,2026-01-01,1\n")
    (store / "s1" / "b_typo.csv").write_text("suite,response_id,rater_id,criterion,scores,rubric_id,rubric_version\n"
                                             "s1,r1,ann,c1,2,rb,1\n")
    (store / "s1" / "c_empty.csv").write_text("")
    (store / "s1" / "d_bom.csv").write_bytes("\ufeffsuite,response_id,criterion,score,rubric_id,rubric_version\n"
                                                "s1,r1,c1,2,rb,1\n".encode())
    (store / "s1" / "e_latin1.csv").write_bytes("response_id,rater_id,criterion,score,reason\nr1,ann,c1,2,tr\xe8s\n"
                                                .encode("latin-1"))
    (store / "s1" / "f_twice.csv").write_text("suite,response_id,rater_id,criterion,score,reason,reason,rubric_id,"
                                              "rubric_version\ns1,r1,ann,c1,2,a,b,rb,1\n")
    (store / "s1" / "g_upper.CSV").write_text("response_id,rater_id,criterion,score\nr1,ann,c1,2\n")
    (store / "s1" / "sub").mkdir()
    (store / "s1" / "sub" / "h.csv").write_text("response_id,rater_id,criterion,score\nr1,ann,c1,2\n")
    (store / "top.jsonl").write_text('{"response_id": "r1"}\n')
    (store / "s1" / "notes.txt").write_text("not a ratings file: left alone\n")
    (store / "s1" / ".gitkeep").write_text("")
    return store


def test_store_file_problems_name_file_row_and_column(tmp_path):
    store = _bad_store(tmp_path)
    problems = store_file_problems(store)
    assert [p.split(": ")[0] for p in problems] == [
        "data/ratings/s1/b_typo.csv:1:scores",     # not a store column
        "data/ratings/s1/b_typo.csv:1:score",      # hence the required score is missing
        "data/ratings/s1/c_empty.csv:1:-",
        "data/ratings/s1/d_bom.csv:1:rater_id",    # the BOM is not part of the first column's name
        "data/ratings/s1/e_latin1.csv:2:-",        # the line of the first byte that is not UTF-8
        "data/ratings/s1/f_twice.csv:1:reason",
        "data/ratings/s1/g_upper.CSV:-:-",         # dbt's glob is *.csv: it would not be read
        "data/ratings/s1/sub/h.csv:-:-",
        "data/ratings/top.jsonl:-:-",
    ]
    assert "not a column of the ratings store" in problems[0] and "evalhouse import-ratings" in problems[0]
    assert problems[1].endswith("required column missing")
    assert "no header line" in problems[2]
    assert "not UTF-8 (invalid continuation byte at byte offset 58)" in problems[4]  # 44 header bytes + "r1,ann,c1,2,tr"
    assert "the column is named 2 times" in problems[5]
    assert "not read: the build reads only data/ratings/<suite>/*.csv" in problems[7]


def test_a_store_file_outside_its_suite(tmp_path):
    """The store's folder is its rows' suite: a file in a folder that is no suite, and rows whose suite column is
    empty, padded or another suite, are problems naming file, row and column; the rows after the fifth are counted."""
    store = tmp_path / "data" / "ratings"
    for suite in ("s1", "s2"):
        (tmp_path / "suites" / suite).mkdir(parents=True)
        (tmp_path / "suites" / suite / "suite.yml").write_text("rubrics: {}\n")
        (store / suite).mkdir(parents=True)
    (store / "_schema").mkdir()
    (store / "_schema" / "000_header.csv").write_text(",".join(STORE_COLUMNS) + "\n")
    (store / "_schema" / "extra.csv").write_text("suite,response_id,rater_id,criterion,score\ns1,r1,ann,c1,2\n")
    (store / "_drafts").mkdir()
    (store / "_drafts" / "a.csv").write_text("suite,response_id,rater_id,criterion,score\n_drafts,r1,ann,c1,2\n")
    (store / "phantom").mkdir()
    (store / "phantom" / "a.csv").write_text("suite,response_id,rater_id,criterion,score\nphantom,r1,ann,c1,2\n")
    (store / "s1" / "ok.csv").write_text('suite,response_id,rater_id,criterion,score,reason,rubric_id,rubric_version\n'
                                         's1,r1,ann,c1,2,"two\nlines",rb,1\ns1,r2,ann,c1,1,,rb,1\n')
    (store / "s1" / "no_suite_column.csv").write_text("response_id,rater_id,criterion,score,rubric_id,rubric_version\n"
                                                      "r1,ann,c1,2,rb,1\nr2,../x,c1,2,rb,1\n"
                                                      "r3,judge:org/m-7b,c1,1,rb,1\nr4, ,c1,1,rb,1\n")
    (store / "s1" / "other.csv").write_text(
        "\ufeffsuite,response_id,rater_id,criterion,score,reason,rubric_id,rubric_version\n"
        's1,r1,ann,c1,2,"a\nb",rb,1\ns2,r1,ann,c1,2,,rb,1\n,r2,ann,c1,2,,rb,1\n s1,r3,ann,c1,2,,rb,1\n'
        + "s2,r9,ann,c1,2,,rb,1\n" * 7)
    problems = store_file_problems(store)
    assert [p.split(": ")[0] for p in problems] == [
        "data/ratings/_drafts/a.csv:-:-",      # only the column list _schema/000_header.csv is no suite's
        "data/ratings/_schema/extra.csv:-:-",
        "data/ratings/phantom/a.csv:-:-",
        "data/ratings/s1/no_suite_column.csv:1:suite",     # the rows' suite is the store's to check
        "data/ratings/s1/no_suite_column.csv:3:rater_id",  # a hand-copied rater id is checked as an import's
        "data/ratings/s1/no_suite_column.csv:5:rater_id",  # ' ': no rater (the import trims and refuses it)
        "data/ratings/s1/other.csv:3:suite",   # row 3: the second record (the first spans two lines)
        "data/ratings/s1/other.csv:4:suite",
        "data/ratings/s1/other.csv:5:suite",
        "data/ratings/s1/other.csv:6:suite",
        "data/ratings/s1/other.csv:7:suite",
        "data/ratings/s1/other.csv:-:suite",
    ]
    assert problems[4] == ("data/ratings/s1/no_suite_column.csv:3:rater_id: '../x' is not a rater id (letters, "
                           "digits, '.', '_', '-', '@', ':', '/' and spaces only; no part between ':' or '/' empty or "
                           "only dots) (store files are written by `evalhouse import-ratings`: move this file out and "
                           "import it)")
    assert problems[2].startswith("data/ratings/phantom/a.csv:-:-: 'phantom' is no suite (no suites/phantom/"
                                  "suite.yml; suites: s1, s2)")
    assert problems[6].startswith("data/ratings/s1/other.csv:3:suite: suite 's2' in the folder of suite 's1'")
    assert "empty suite in the folder of suite 's1'" in problems[7]
    assert "suite ' s1' in the folder of suite 's1'" in problems[8]  # dbt would not trim it: another suite
    assert problems[11] == "data/ratings/s1/other.csv:-:suite: 5 more row(s) of another suite than the folder's 's1'"
    (store / "_schema" / "extra.csv").unlink()
    (store / "_drafts" / "a.csv").unlink()
    (store / "_schema" / "000_header.csv").write_text(",".join(STORE_COLUMNS) + "\n\ns1,r1,,,ann\n")
    column_list = f"the store's column list is the one line {','.join(STORE_COLUMNS)}: write it back"
    assert store_file_problems(store)[0] == (
        "data/ratings/_schema/000_header.csv:2:-: the store's column list holds its header line only (dbt would read "
        f"the rows below it as ratings of no suite); {column_list}")
    (store / "_schema" / "000_header.csv").write_text("suite,response_id,rater_id,criterion,score,note,score\n")
    assert store_file_problems(store)[0] == (
        "data/ratings/_schema/000_header.csv:1:-: the store's column list is not the store's columns (missing: "
        f"{', '.join(c for c in STORE_COLUMNS if c not in ('suite', 'response_id', 'rater_id', 'criterion', 'score'))})"
        f" (not a column or named twice: score, note); {column_list}")
    (store / "_schema" / "000_header.csv").write_text(",".join(reversed(STORE_COLUMNS)) + "\n")
    assert store_file_problems(store)[0] == (
        "data/ratings/_schema/000_header.csv:1:-: the store's column list is not the store's columns (in another "
        f"order: the build's table takes its column order); {column_list}")
    (store / "_schema" / "000_header.csv").write_text("")
    assert store_file_problems(store)[0] == (
        f"data/ratings/_schema/000_header.csv:1:-: no header line (an empty file); {column_list}")
    (store / "_schema" / "000_header.csv").write_text(",".join(STORE_COLUMNS) + "\n\n")  # a blank line reads no row
    assert store_file_problems(store, suites_dir=tmp_path / "elsewhere")[1].endswith(
        "'s1' is no suite (no elsewhere/s1/suite.yml; suites: none); the store keeps a suite's ratings in "
        "data/ratings/<suite>/; store files are written by `evalhouse import-ratings`: move this file out")


def test_bundled_store_has_no_file_problem():
    assert store_file_problems() == []
    assert store_file_problems(paths.ratings_store()) == []


def test_build_stops_on_a_bad_store_file_before_anything(monkeypatch, tmp_path):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    store = _bad_store(tmp_path)
    monkeypatch.setattr(paths, "ratings_store", lambda: store)
    monkeypatch.setenv("EVALHOUSE_DB", str(tmp_path / "build" / "evalhouse.duckdb"))
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(tmp_path / "published" / "evalhouse.duckdb"))
    res = CliRunner().invoke(app, ["build"])
    assert res.exit_code == 1  # a problem in the data, as for a suite (2: a bad setting or argument)
    assert "error: data/ratings/s1/b_typo.csv:1:scores: not a column of the ratings store" in res.output
    assert "error: 9 problem(s) in the ratings store's files; nothing built or published" in res.output
    assert not (tmp_path / "build").exists() and not (tmp_path / "published").exists()  # no lock, nothing landed


def test_a_store_file_without_its_rubric(tmp_path):
    """import-ratings writes every rating's rubric_id and rubric_version: a hand-copied file without them (or with
    one empty, or a version that is no whole number) stops the build before dbt, naming file, row and column. Such
    a row was kept unscored, and an empty rubric_id failed the build at a reliability mart's not_null test."""
    store = tmp_path / "data" / "ratings"
    (tmp_path / "suites" / "s1").mkdir(parents=True)
    (tmp_path / "suites" / "s1" / "suite.yml").write_text("rubrics: {}\n")
    (store / "s1").mkdir(parents=True)
    (store / "s1" / "a_no_rubric.csv").write_text("suite,response_id,rater_id,criterion,score\ns1,r1,ann,c1,2\n")
    (store / "s1" / "b_values.csv").write_text("suite,response_id,rater_id,criterion,score,rubric_id,rubric_version\n"
                                               "s1,r1,ann,c1,2,rb,1\ns1,r2,ann,c1,2, ,1\ns1,r3,ann,c1,2,rb,\n"
                                               "s1,r4,ann,c1,2,rb,v2\ns1,r5,ann,c1,2,rb, 2 \n")
    problems = store_file_problems(store)
    assert [p.split(": ", 1)[0] for p in problems] == [
        "data/ratings/s1/a_no_rubric.csv:1:rubric_id", "data/ratings/s1/a_no_rubric.csv:1:rubric_version",
        "data/ratings/s1/b_values.csv:3:rubric_id", "data/ratings/s1/b_values.csv:4:rubric_version",
        "data/ratings/s1/b_values.csv:5:rubric_version"]
    assert problems[0].endswith("required column missing")
    assert problems[2].startswith("data/ratings/s1/b_values.csv:3:rubric_id: empty rubric_id (' '; store files are "
                                  "written by `evalhouse import-ratings`")
    assert problems[4].startswith("data/ratings/s1/b_values.csv:5:rubric_version: rubric_version is not a whole "
                                  "number ('v2'; ")
