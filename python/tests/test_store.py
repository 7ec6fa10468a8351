"""The ratings store: validation with file/row/column errors, all-or-nothing, append-only, blind keys."""
from __future__ import annotations

import csv
import hashlib
import os
from pathlib import Path

import pytest

from evalhouse.ratings import blind, store

S07_GEMMA = "larkfield-S07-2e3f70ab4524-r1"


@pytest.fixture()
def env(warehouse, tmp_path):
    """A blind export of S07 into temp folders, a temp store, and a catalog that knows the export."""
    keys_dir, store_dir, out = tmp_path / "keys", tmp_path / "store", tmp_path / "packets"
    blind.export(warehouse, out, "larkfield", seed=7, export_id="t1", keys_dir=keys_dir, items=["S07"])
    catalog = store.Catalog.from_warehouse(warehouse, keys_dir=keys_dir)
    return dict(keys_dir=keys_dir, store_dir=store_dir, out=out, catalog=catalog, tmp=tmp_path)


def write(path: Path, text: str, encoding="utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def snapshot(folder: Path) -> dict:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.rglob("*")) if p.is_file()}


def rejected(path, env, **kw) -> list[str]:
    with pytest.raises(store.ImportRejected) as info:
        store.import_ratings(path, env["catalog"], store_dir=env["store_dir"], **kw)
    return info.value.problems


HEADER = "packet_id,letter,rater_id,criterion,score,reason\n"


def test_blind_import_appends_a_new_file_and_keeps_the_letter(env):
    f = write(env["tmp"] / "r.csv", HEADER + "t1-S07,A,camille,correctness,2,ok\nt1-S07,A,camille,completeness,1,\n")
    target, n = store.import_ratings(f, env["catalog"], store_dir=env["store_dir"])
    assert n == 2 and target.parent == env["store_dir"] / "larkfield"
    rows = list(csv.DictReader(open(target, encoding="utf-8")))
    assert [r["letter"] for r in rows] == ["A", "A"] and rows[0]["response_id"] == ""
    assert rows[0]["is_blind"] == "true" and rows[0]["rubric_version"] == "2" and rows[0]["score"] == "2"


def test_a_blind_row_cannot_name_another_version_or_reply(env):
    """Packet t1-S07 was exported under larkfield_support v2: a row saying v3 was stored as v3 (its rater read v2's
    anchors), and a row naming another reply's response_id lost it silently (trial)."""
    other = next(r for r in env["catalog"].responses if "S07" not in r)
    f = write(env["tmp"] / "conflict.csv", "packet_id,letter,rater_id,criterion,score,rubric_version,response_id\n"
              "t1-S07,A,camille,correctness,2,3,\n"
              f"t1-S07,B,camille,correctness,2,,{other}\n"
              "t1-S07,C,camille,correctness,2,2,\n")
    got = rejected(f, env)
    assert got == [
        f"{f}:2:rubric_version: packet 't1-S07' was exported under rubric 'larkfield_support' version 2, the anchors "
        "its rater read, not '3' (leave it empty)",
        f"{f}:3:response_id: packet 't1-S07' letter 'B' is another reply: leave response_id empty in a blind rating "
        "(the letter says which reply it is)"]
    assert not list(env["store_dir"].rglob("*.csv"))  # nothing stored


def test_bom_and_crlf_are_accepted(env):
    text = (HEADER + "t1-S07,B,grace,correctness,2,fine\n").replace("\n", "\r\n")
    f = write(env["tmp"] / "bom.csv", "\ufeff" + text)
    _, n = store.import_ratings(f, env["catalog"], store_dir=env["store_dir"])
    assert n == 1


def test_errors_name_file_row_and_column_and_nothing_is_written(env):
    first = write(env["tmp"] / "first.csv", HEADER + "t1-S07,A,camille,correctness,2,ok\n")
    store.import_ratings(first, env["catalog"], store_dir=env["store_dir"])
    before = snapshot(env["store_dir"])
    bad = write(
        env["tmp"] / "bad.csv",
        HEADER
        + "t1-S07,B,camille,correctness,2,valid row\n"  # valid, but the file is rejected as a whole
        + "t1-S07,Z,camille,correctness,2,\n"  # unknown letter
        + "t1-S07,C,camille,correctness,3,\n"  # out of range
        + "t1-S07,C,camille,tone,1,\n"  # unknown criterion
        + "t1-S07,D,camille,correctness,,\n"  # missing score
        + "t1-S07,A,camille,correctness,1,\n"  # duplicate of the stored rating
        + "t1-S07,B,camille,correctness,1,\n"  # duplicate of row 2 of this file
        + "nope-S07,A,camille,correctness,1,\n",  # unknown packet
    )
    problems = rejected(bad, env)
    name = str(bad)
    assert f"{name}:3:letter: packet 't1-S07' has no reply 'Z'" in problems
    assert f"{name}:4:score: 3 is outside correctness's scale 0-2" in problems
    assert any(p.startswith(f"{name}:5:criterion: unknown criterion 'tone'") for p in problems)
    assert f"{name}:6:score: missing score" in problems
    assert any(p.startswith(f"{name}:7:criterion: duplicate rating: already stored at") for p in problems)
    assert f"{name}:8:criterion: duplicate rating: same reply, rater, criterion and version as row 2" in problems
    assert f"{name}:9:packet_id: unknown packet 'nope-S07'" in problems
    assert len(problems) == 7
    assert snapshot(env["store_dir"]) == before


def test_a_column_nothing_reads_is_refused_and_nothing_is_written(env):
    """A typo ('reasons') would drop every reason without a word, and rated_at would be replaced by the import
    time: both columns are refused, naming the file, the header row and the column; nothing is written."""
    before = snapshot(env["store_dir"]) if env["store_dir"].exists() else {}
    f = write(env["tmp"] / "typo.csv", "packet_id,letter,rater_id,criterion,score,reasons,rated_at\n"
                                       "t1-S07,A,camille,correctness,2,clear answer,2026-11-01T09:00:00\n")
    problems = rejected(f, env)
    assert problems[0] == f"{f}:1:reasons: unknown column; the columns read are " + ", ".join(store.INPUT_COLUMNS)
    assert problems[1] == f"{f}:1:rated_at: not read: the store records the import time as rated_at; remove the column"
    assert len(problems) == 2
    assert (snapshot(env["store_dir"]) if env["store_dir"].exists() else {}) == before
    # JSON Lines: a key on any line counts
    g = write(env["tmp"] / "typo.jsonl",
              '{"packet_id": "t1-S07", "letter": "A", "rater_id": "camille", "criterion": "correctness", "score": 2}\n'
              '{"packet_id": "t1-S07", "letter": "B", "rater_id": "camille", "criterion": "correctness", "score": 2, '
              '"coment": "x"}\n')
    assert rejected(g, env) == [f"{g}:1:coment: unknown column; the columns read are " + ", ".join(store.INPUT_COLUMNS)]


def test_unknown_ticket_and_model_by_name(env):
    f = write(
        env["tmp"] / "named.csv",
        "suite,item_id,system_id,rater_id,criterion,score\n"
        "larkfield,S99,Gemma 3 4B (local),grace,correctness,1\n"
        "larkfield,S07,GPT-9,grace,correctness,1\n"
        "larkfield,S07,Gemma 3 4B (local),grace,correctness,0\n"
        "larkfeld,S07,Gemma 3 4B (local),grace,correctness,0\n",
    )
    problems = rejected(f, env)
    assert problems[:2] == [
        f"{f}:2:item_id: unknown item 'S99' in suite 'larkfield'",
        f"{f}:3:system_id: no response of model run 'GPT-9' to item 'S07'",
    ]
    # a misspelt suite is named as such, with the suites there are
    assert problems[2].startswith(f"{f}:5:suite: unknown suite 'larkfeld'; the warehouse has ")
    assert problems[2].endswith(" (a suite added under suites/ is known once a `make build` has published it)")
    assert "larkfield" in problems[2].split("the warehouse has ")[1].split(", ")
    assert len(problems) == 3
    ok = write(env["tmp"] / "named_ok.csv", "suite,item_id,system_id,rater_id,criterion,score\n"
               "larkfield,S07,Gemma 3 4B (local),grace,correctness,0\n")
    target, _ = store.import_ratings(ok, env["catalog"], store_dir=env["store_dir"])
    row = next(csv.DictReader(open(target, encoding="utf-8")))
    assert row["response_id"] == S07_GEMMA and row["is_blind"] == "false"


def test_malformed_csv_and_jsonl(env):
    ragged = write(env["tmp"] / "ragged.csv", HEADER + "t1-S07,A,camille,correctness,2\n")
    assert rejected(ragged, env) == [f"{ragged}:2:-: 5 fields, the header has 6"]
    quote = write(env["tmp"] / "quote.csv", HEADER + 't1-S07,A,camille,correctness,2,"unclosed\n')
    assert "malformed CSV" in rejected(quote, env)[0]
    latin = write(env["tmp"] / "latin.csv", HEADER + "t1-S07,A,camille,correctness,2,très\n", encoding="latin-1")
    assert rejected(latin, env)[0].startswith(f"{latin}:2:-: not UTF-8")
    jsonl = write(env["tmp"] / "r.jsonl", '{"packet_id": "t1-S07", "letter": "A", "rater_id": "c", '
                  '"criterion": "correctness", "score": 2}\n{"packet_id": "t1-S07", "letter": \n')
    assert rejected(jsonl, env)[0].startswith(f"{jsonl}:2:-: not valid JSON")
    header_only = write(env["tmp"] / "h.csv", "packet_id,letter,criterion,score\n")
    assert rejected(header_only, env) == [f"{header_only}:1:-: no ratings in the file"]
    no_rater = write(env["tmp"] / "nr.csv", "packet_id,letter,criterion,score\nt1-S07,A,correctness,2\n")
    assert rejected(no_rater, env) == [f"{no_rater}:1:rater_id: required column missing (or pass --rater)"]
    no_target = write(env["tmp"] / "nt.csv", "rater_id,criterion,score\nc,correctness,2\n")
    assert "the header needs packet_id+letter" in rejected(no_target, env)[0]
    absent = env["tmp"] / "absent.csv"  # a file-wide problem: no row to name
    assert rejected(absent, env) == [f"{absent}:-:-: cannot read the file (No such file or directory)"]


def test_jsonl_import(env):
    f = write(env["tmp"] / "ok.jsonl", '{"packet_id": "t1-S07", "letter": "C", "criterion": "correctness", '
              '"score": 1, "reason": "x"}\n')
    _, n = store.import_ratings(f, env["catalog"], store_dir=env["store_dir"], rater="judge-x", rater_kind="judge")
    assert n == 1


def test_append_never_replaces_an_existing_file(env, monkeypatch):
    rows = store.validate(write(env["tmp"] / "a.csv", HEADER + "t1-S07,A,c,correctness,2,\n"), env["catalog"],
                          store_dir=env["store_dir"])
    first = store.append(rows, store_dir=env["store_dir"])
    content = first.read_bytes()

    class Frozen:  # same timestamp -> same file name: the second append must refuse, not overwrite
        @staticmethod
        def now(tz=None):
            import datetime as dt

            return dt.datetime(2026, 1, 1, tzinfo=tz)

    monkeypatch.setattr(store, "datetime", Frozen)
    a = store.append(rows, store_dir=env["store_dir"])
    with pytest.raises(FileExistsError):
        store.append(rows, store_dir=env["store_dir"])
    assert first.read_bytes() == content and a.exists()


def test_blind_and_direct_ratings_of_the_same_reply_are_duplicates_and_corrections_are_explicit(env):
    blind_row = write(env["tmp"] / "b.csv", HEADER + "t1-S07,A,camille,correctness,2,first\n")
    store.import_ratings(blind_row, env["catalog"], store_dir=env["store_dir"])
    response_a = env["catalog"].keys[("t1-S07", "A")]["response_id"]
    direct = write(env["tmp"] / "d.csv", "response_id,rater_id,criterion,score,rubric_version\n"
                   f"{response_a},camille,correctness,1,2\n")
    assert "duplicate rating: already stored at" in rejected(direct, env)[0]
    fix = write(env["tmp"] / "fix.csv", HEADER + "t1-S07,A,camille,correctness,1,second look\n")
    assert "--correction" in rejected(fix, env)[0]
    target, n = store.import_ratings(fix, env["catalog"], store_dir=env["store_dir"], correction=True)
    assert n == 1 and len(list((env["store_dir"] / "larkfield").glob("*.csv"))) == 2  # appended, nothing edited


def test_jsonl_line_separator_inside_a_string_is_legal(env):
    f = env["tmp"] / "u2028.jsonl"
    f.write_text('{"packet_id": "t1-S07", "letter": "B", "rater_id": "c", "criterion": "correctness", '
                 '"score": 2, "reason": "line\u2028sep"}\n', encoding="utf-8")
    _, n = store.import_ratings(f, env["catalog"], store_dir=env["store_dir"])
    assert n == 1


def test_a_rater_has_one_kind_in_a_suite(env):
    """One rater, two kinds in a suite would repeat the rater's rows in the marts (the build's grain tests failed):
    refused within the file, against the store and against the warehouse, naming where the other kind is."""
    f = write(env["tmp"] / "two_kinds.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
              "t1-S07,A,lea,human,correctness,2\n"
              "t1-S07,A,lea,adjudicator,completeness,1\n"     # the same reply, another kind
              "t1-S07,B,lea,,correctness,1\n"                 # empty: human, as the first row
              "t1-S07,B,course_team,judge,correctness,1\n")   # human in the bundled warehouse
    assert rejected(f, env) == [
        f"{f}:3:rater_kind: rater 'lea' is 'adjudicator' here and 'human' at {f}:2; a rater has one kind in a "
        "suite (import these ratings under another rater id)",
        f"{f}:5:rater_kind: rater 'course_team' is 'judge' here and 'human' at suites/larkfield/ratings.csv (in the "
        "suite's files); a rater has one kind in a suite (import these ratings under another rater id)"]
    assert not list(env["store_dir"].rglob("*.csv"))
    first = write(env["tmp"] / "lea.csv", "packet_id,letter,criterion,score\nt1-S07,A,correctness,2\n")
    target, _ = store.import_ratings(first, env["catalog"], store_dir=env["store_dir"], rater="lea")
    # a refused row sets no kind for the rows after it: row 3 agrees with the store and is not a second problem
    mixed = write(env["tmp"] / "mixed.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
                  "t1-S07,B,lea,judge,correctness,1\nt1-S07,B,lea,human,completeness,1\n")
    assert rejected(mixed, env) == [
        f"{mixed}:2:rater_kind: rater 'lea' is 'judge' here and 'human' at {target}:2; a rater has one kind in a "
        "suite (import these ratings under another rater id)"]
    later = write(env["tmp"] / "adjudicate.csv", "packet_id,letter,criterion,score\nt1-S07,B,correctness,1\n")
    assert rejected(later, env, rater="lea", rater_kind="adjudicator") == [
        f"{later}:2:rater_kind: rater 'lea' is 'adjudicator' here and 'human' at {target}:2; a rater has one kind "
        "in a suite (import these ratings under another rater id)"]
    # a kind cell that differs from --rater-kind is that one problem, not also a second kind for lea
    cell = write(env["tmp"] / "cell.csv", "packet_id,letter,rater_kind,criterion,score\nt1-S07,B,judge,correctness,1\n")
    assert rejected(cell, env, rater="lea", rater_kind="adjudicator") == [
        f"{cell}:2:rater_kind: 'judge' differs from --rater-kind 'adjudicator'; empty the column or leave out "
        "--rater-kind"]
    _, n = store.import_ratings(later, env["catalog"], store_dir=env["store_dir"], rater="lea-adjudication",
                                rater_kind="adjudicator")
    assert n == 1
    assert rejected(later, env, rater="max", rater_kind="jduge") == [
        f"{later}:-:rater_kind: --rater-kind 'jduge' is not one of human, judge, program, metric, adjudicator"]


def test_a_rater_kind_from_suite_files_not_built_yet(env, tmp_path):
    """A suite file the warehouse has not seen yet (added after the last build) counts: its rater kinds are read
    from the folder as it is (CSV and Parquet; an empty or missing kind is human), and a store row that gives such
    a rater another kind is refused at import, before it is appended (the store is append-only), instead of
    failing the next build. The warehouse knows the rater as human (course_team); the suite's files now say judge,
    and they win: they are what the next build lands."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from evalhouse.suites.check import rater_kinds

    suites = tmp_path / "suites"
    (suites / "larkfield" / "ratings").mkdir(parents=True)
    (suites / "larkfield" / "suite.yml").write_text("rubrics: {}\n", encoding="utf-8")
    write(suites / "larkfield" / "ratings" / "a.csv",
          "response_id,rater_id,rater_kind,criterion,score\nx,gpt-judge,judge,correctness,1\n"
          "x,course_team,judge,correctness,1\nx,,judge,correctness,1\n")
    pq.write_table(pa.table({"response_id": ["x", "y"], "rater_id": ["pat", "gpt-judge"],
                             "rater_kind": [None, "judge"]}), suites / "larkfield" / "ratings" / "b.parquet")
    pq.write_table(pa.table({"response_id": ["x"], "rater_id": ["sam"]}), suites / "larkfield" / "ratings" / "c.parquet")
    # a float id lands as its text ('8.0', as suite land writes it), not as the store would trim or cast it
    pq.write_table(pa.table({"response_id": ["x"], "rater_id": [8.0], "rater_kind": ["judge"]}),
                   suites / "larkfield" / "ratings" / "d.parquet")
    def named(kinds: dict) -> dict:
        return {k: [(kind, Path(where).name) for kind, where in v] for k, v in kinds.items()}

    assert named(rater_kinds(suites / "larkfield")) == {
        "gpt-judge": [("judge", "a.csv")], "course_team": [("judge", "a.csv")], "pat": [("human", "b.parquet")],
        "sam": [("human", "c.parquet")], "8.0": [("judge", "d.parquet")]}
    # a GRADE pack suite gives its pack judges (judge_model@prompt_version of judge_ratings.csv); a pack folder that
    # is missing and a folder without suite.yml give nothing
    grade = rater_kinds(Path(__file__).resolve().parents[2] / "suites" / "grade")
    assert named(grade) == {"synthetic-judge-1@grade-judge-v1": [("judge", "judge_ratings.csv")]}
    (suites / "packs").mkdir()
    (suites / "packs" / "suite.yml").write_text("pack_dir: packs\n", encoding="utf-8")
    assert rater_kinds(suites / "packs") == {} and rater_kinds(suites / "nothing") == {}

    f = write(env["tmp"] / "k.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
              "t1-S07,A,gpt-judge,human,correctness,2\n"     # judge in a.csv
              "t1-S07,A,pat,judge,correctness,1\n"           # human in b.parquet (its kind is empty there)
              "t1-S07,A,course_team,,correctness,1\n"        # human in the warehouse, judge in the files now
              "t1-S07,B,sam,,correctness,1\n")               # human in c.parquet (no kind column): fine
    problems = rejected(f, env, suites_dir=suites)
    where = {row: p.split(" at ", 1)[1].split(";")[0] for row, p in ((int(p.split(":")[1]), p) for p in problems)}
    assert [p.split(": ", 1)[1].split(" at ")[0] for p in problems] == [
        "rater 'gpt-judge' is 'human' here and 'judge'", "rater 'pat' is 'judge' here and 'human'",
        "rater 'course_team' is 'human' here and 'judge'"]
    assert {row: Path(w.split(" (")[0]).name for row, w in where.items()} == {2: "a.csv", 3: "b.parquet", 4: "a.csv"}
    assert all(w.endswith("(in the suite's files)") for w in where.values())
    assert not list(env["store_dir"].rglob("*.csv"))  # nothing appended
    ok = write(env["tmp"] / "ok.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
               "t1-S07,A,gpt-judge,judge,correctness,2\nt1-S07,B,sam,,correctness,1\n")
    target, n = store.import_ratings(ok, env["catalog"], store_dir=env["store_dir"], suites_dir=suites)
    assert n == 2
    # every kind counts, not only the first source's: the store now has gpt-judge as judge, and a suite file that
    # says human (the suite cannot build) makes a further judge row a problem too; so does a rater the suite's own
    # files give two kinds
    write(suites / "larkfield" / "ratings" / "e.csv", "response_id,rater_id,rater_kind\nx,gpt-judge,human\n"
                                                        "x,sam,judge\n")
    assert named(rater_kinds(suites / "larkfield"))["sam"] == [("human", "c.parquet"), ("judge", "e.csv")]
    again = write(env["tmp"] / "again.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
                  "t1-S07,C,gpt-judge,judge,correctness,2\nt1-S07,C,sam,human,correctness,1\n")
    e_csv = os.path.relpath(suites / "larkfield" / "ratings" / "e.csv")
    assert [p.split(": ", 1)[1].split(";")[0] for p in rejected(again, env, suites_dir=suites)] == [
        f"rater 'gpt-judge' is 'judge' here and 'human' at {e_csv} (in the suite's files)",
        f"rater 'sam' is 'human' here and 'judge' at {e_csv} (in the suite's files)"]
    assert len(list(env["store_dir"].rglob("*.csv"))) == 1 and target.exists()


def test_rater_is_trimmed_and_blind_flag_checked(env):
    f = write(env["tmp"] / "r.csv", HEADER + "t1-S07,C,,correctness,2,\n")
    target, _ = store.import_ratings(f, env["catalog"], store_dir=env["store_dir"], rater="  grace  ")
    assert next(csv.DictReader(open(target, encoding="utf-8")))["rater_id"] == "grace"
    bad = write(env["tmp"] / "bad.csv", "suite,item_id,system_id,rater_id,criterion,score,is_blind\n"
                "larkfield,S07,Gemma 3 4B (local),grace,completeness,1,maybe\n")
    assert rejected(bad, env) == [f"{bad}:2:is_blind: 'maybe' is not true or false"]


def test_rater_options_fill_empty_cells_and_never_replace_a_filled_one(env):
    f = write(env["tmp"] / "mixed.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
              "t1-S07,A,,,correctness,2\n"      # empty cells: the options fill them
              "t1-S07,B,grace,human,correctness,1\n"  # the same values: accepted
              "t1-S07,C,camille,judge,correctness,0\n")  # someone else's rating, another kind: both named
    assert rejected(f, env, rater="grace", rater_kind="human") == [
        f"{f}:4:rater_id: 'camille' differs from --rater 'grace'; empty the column or leave out --rater",
        f"{f}:4:rater_kind: 'judge' differs from --rater-kind 'human'; empty the column or leave out --rater-kind"]
    assert not list(env["store_dir"].rglob("*.csv"))  # all or nothing
    ok = write(env["tmp"] / "ok.csv", "packet_id,letter,rater_id,rater_kind,criterion,score\n"
               "t1-S07,A,,,correctness,2\nt1-S07,B, grace ,human,correctness,1\n")
    target, n = store.import_ratings(ok, env["catalog"], store_dir=env["store_dir"], rater="grace", rater_kind="human")
    stored = list(csv.DictReader(open(target, encoding="utf-8")))
    assert n == 2 and [(r["rater_id"], r["rater_kind"]) for r in stored] == [("grace", "human")] * 2
