"""Rating rounds (evalhouse.ratings.rounds, evalhouse.ratings.round_agreement): assignment, locks, bad input, agreement by hand.

No project build: a small in-memory DuckDB stands in for the published warehouse's dim_responses and
dim_rubric_levels, and every store folder is a tmp_path.
"""
from __future__ import annotations

import collections
import csv
import datetime as dt

import duckdb
import pandas as pd
import pytest

from evalhouse.ratings import rounds
from evalhouse.ratings.round_agreement import READING_COLUMNS, round_agreement, round_pair_agreement
from evalhouse.ratings.rounds import PacketLocked, RoundAccessError, RoundError

RATERS = ["ana", "ben", "chloe", "dev"]
T0 = dt.datetime(2026, 12, 1, 9, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 12, 1)


@pytest.fixture()
def con():
    """12 items x 1 reply of suite s1 (+ item i01 has a second reply of run m2), rubric r1 versions 1 and 2."""
    c = duckdb.connect()
    c.execute("create table dim_responses (suite varchar, item_id varchar, response_id varchar, system_id varchar, "
              "response_text varchar)")
    rows = [("s1", f"i{n:02d}", f"resp-{n:02d}", "m1", f"reply {n}") for n in range(1, 13)]
    rows.append(("s2", "x1", "resp-x1", "m1", "other suite"))
    c.executemany("insert into dim_responses values (?, ?, ?, ?, ?)", rows)
    c.execute("create table dim_rubric_levels (suite varchar, rubric_id varchar, rubric_version integer)")
    c.executemany("insert into dim_rubric_levels values (?, ?, ?)", [("s1", "r1", 1), ("s1", "r1", 2)])
    yield c
    c.close()


@pytest.fixture()
def dirs(tmp_path):
    return {"root": tmp_path / "rounds", "keys_dir": tmp_path / "keys"}


def _create(con, dirs, round_id="rd1", **kw):
    args = dict(suite="s1", raters=RATERS, readers=3, due_date="2026-12-20", today=TODAY, **dirs)
    args.update(kw)
    return rounds.create_round(con, round_id, **args)


def _written(tmp_path):
    return sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())


def test_12_replies_3_readers_4_raters(con, dirs):
    out = _create(con, dirs)
    assert (out["n_replies"], out["n_packets"], out["rubric_version"], out["scope"]) == (12, 36, 2, "all")
    holders = rounds.packet_holders("rd1", dirs["root"])
    keys = rounds.packet_replies("rd1", dirs["keys_dir"])
    readers = collections.defaultdict(list)
    for packet_id, event in holders.items():
        for k in keys[packet_id]:
            readers[k["response_id"]].append(event["rater_id"])
    assert len(readers) == 12
    assert all(len(r) == 3 and len(set(r)) == 3 for r in readers.values())
    loads = collections.Counter(e["rater_id"] for e in holders.values())
    assert sorted(loads) == RATERS and sum(loads.values()) == 36 and max(loads.values()) - min(loads.values()) <= 1
    assert out["packets"] == dict(loads)


def test_loads_balanced_when_not_divisible_and_orders_differ(con, dirs):
    con.executemany("insert into dim_responses values (?, ?, ?, ?, ?)",
                    [("s1", "i01", "resp-01b", "m2", "b"), ("s1", "i01", "resp-01c", "m3", "c")])
    _create(con, dirs, readers=3, raters=RATERS[:4] + ["eve"])
    holders = rounds.packet_holders("rd1", dirs["root"])
    loads = collections.Counter(e["rater_id"] for e in holders.values())
    assert sum(loads.values()) == 36 and max(loads.values()) - min(loads.values()) == 1  # 36 over 5: 8 and 7
    keys = rounds.packet_replies("rd1", dirs["keys_dir"])
    orders = [tuple(k["response_id"] for k in keys[f"rd1-i01-{s}"]) for s in (1, 2, 3)]
    assert len(set(orders)) == 3 and all(sorted(o) == ["resp-01", "resp-01b", "resp-01c"] for o in orders)
    assert [k["letter"] for k in keys["rd1-i01-1"]] == ["A", "B", "C"]


def test_same_seed_same_assignment(con, dirs, tmp_path):
    _create(con, dirs)
    other = {"root": tmp_path / "r2", "keys_dir": tmp_path / "k2"}
    _create(con, other)
    strip = lambda h: {p: e["rater_id"] for p, e in h.items()}  # noqa: E731
    assert strip(rounds.packet_holders("rd1", dirs["root"])) == strip(rounds.packet_holders("rd1", other["root"]))


@pytest.mark.parametrize("kw, message", [
    (dict(readers=5), "5 readers per reply need at least 5 raters"),
    (dict(rubric_version=7), "rubric 'r1' has no version 7; versions: 1, 2"),
    (dict(rubric_id="nope"), "unknown rubric 'nope'"),
    (dict(suite="s9"), "unknown suite 's9'"),
    (dict(raters=["ana", "ana", "ben"], readers=2), "listed twice: ana"),
    (dict(raters=["../x", "ben"], readers=2), "is not a rater id"),
    (dict(due_date="20/12/2026"), "is not a date"),
    (dict(due_date="2026-11-30"), "is in the past"),
    (dict(sample=13), "--sample 13: the scope holds 12 replies"),
    (dict(where="r.no_such_column = 1"), "the warehouse rejected it"),
    (dict(items=["i99"]), "item(s) not in scope"),
    (dict(readers=0), "at least 1"),
])
def test_bad_input_writes_nothing(con, dirs, tmp_path, kw, message):
    with pytest.raises(RoundError, match=None) as exc:
        _create(con, dirs, **kw)
    assert message in str(exc.value)
    assert _written(tmp_path) == []


def test_existing_round_or_export_id_refused(con, dirs, tmp_path):
    _create(con, dirs)
    before = _written(tmp_path)
    with pytest.raises(RoundError, match="already exists"):
        _create(con, dirs)
    dirs["keys_dir"].joinpath("exp2.csv").write_text("export_id\n")
    with pytest.raises(RoundError, match="already exists"):
        _create(con, dirs, round_id="exp2")
    assert _written(tmp_path) == sorted(before + [dirs["keys_dir"].joinpath("exp2.csv").relative_to(tmp_path)])


def test_sample_and_filter_scope(con, dirs):
    out = _create(con, dirs, sample=5, seed=7, readers=2)
    assert (out["n_replies"], out["scope"], out["n_packets"]) == (5, "sample", 10)
    out2 = _create(con, dirs, round_id="rd2", where="r.item_id in ('i01', 'i02')", readers=2)
    assert (out2["n_replies"], out2["scope"]) == (2, "filter")
    assert out2["scope_filter"] == "where r.item_id in ('i01', 'i02')"


def test_rater_sees_only_own_packets_and_outsider_refused(con, dirs):
    _create(con, dirs)
    root = dirs["root"]
    mine = rounds.rater_packets("rd1", "ana", root)
    holders = rounds.packet_holders("rd1", root)
    assert mine and all(holders[p]["rater_id"] == "ana" for p in mine)
    assert len(mine) == sum(e["rater_id"] == "ana" for e in holders.values())
    with pytest.raises(RoundAccessError, match="zoe is not a rater of round rd1"):
        rounds.rater_packets("rd1", "zoe", root)
    with pytest.raises(RoundError, match="unknown round 'rd9'; rounds: rd1"):
        rounds.rater_packets("rd9", "ana", root)
    with pytest.raises(RoundAccessError, match="zoe is not a rater of round rd1"):
        rounds.open_packet("rd1", mine[0], "zoe", "s-z", now=T0, root=root)
    with pytest.raises(RoundAccessError, match="assigned to another rater"):
        rounds.open_packet("rd1", mine[0], next(r for r in RATERS if r != "ana"), "s-b", now=T0, root=root)
    assert not (root / "locks").exists() or not list((root / "locks").rglob("*.json"))


def test_lock_one_session_at_a_time_and_expiry(con, dirs):
    _create(con, dirs, lock_minutes=30)
    root = dirs["root"]
    packet = rounds.rater_packets("rd1", "ben", root)[0]
    lock = rounds.open_packet("rd1", packet, "ben", "tab-1", now=T0, root=root)
    assert lock.expires_at == T0 + dt.timedelta(minutes=30)
    with pytest.raises(PacketLocked, match="open in another session until 2026-12-01T09:30:00Z"):
        rounds.open_packet("rd1", packet, "ben", "tab-2", now=T0 + dt.timedelta(minutes=29), root=root)
    rounds.check_lock("rd1", packet, "ben", "tab-1", now=T0 + dt.timedelta(minutes=29), root=root)
    with pytest.raises(PacketLocked):
        rounds.check_lock("rd1", packet, "ben", "tab-2", now=T0 + dt.timedelta(minutes=29), root=root)
    # the same session renews; at expiry the lock is gone and another session gets it
    rounds.open_packet("rd1", packet, "ben", "tab-1", now=T0 + dt.timedelta(minutes=10), root=root)
    assert rounds.active_lock("rd1", packet, T0 + dt.timedelta(minutes=39), root).session_id == "tab-1"
    assert rounds.active_lock("rd1", packet, T0 + dt.timedelta(minutes=40), root) is None
    rounds.open_packet("rd1", packet, "ben", "tab-2", now=T0 + dt.timedelta(minutes=40), root=root)
    with pytest.raises(PacketLocked):
        rounds.check_lock("rd1", packet, "ben", "tab-1", now=T0 + dt.timedelta(minutes=41), root=root)
    # release frees it at once
    assert rounds.release_packet("rd1", packet, "tab-2", now=T0 + dt.timedelta(minutes=41), root=root)
    assert rounds.active_lock("rd1", packet, T0 + dt.timedelta(minutes=42), root) is None
    rounds.open_packet("rd1", packet, "ben", "tab-1", now=T0 + dt.timedelta(minutes=42), root=root)
    # the packet's rater may take it over in a new session (a reloaded page); the old session can no longer save
    t = T0 + dt.timedelta(minutes=43)
    rounds.open_packet("rd1", packet, "ben", "tab-3", now=t, root=root, take_over=True)
    assert rounds.active_lock("rd1", packet, t, root).session_id == "tab-3"
    with pytest.raises(PacketLocked):
        rounds.check_lock("rd1", packet, "ben", "tab-1", now=t, root=root)
    with pytest.raises(RoundAccessError):  # another rater cannot take it over
        rounds.open_packet("rd1", packet, "ana", "x", now=t, root=root, take_over=True)


def test_reassign_is_logged_and_checked(con, dirs):
    _create(con, dirs)
    root = dirs["root"]
    holders = rounds.packet_holders("rd1", root)
    packet = sorted(holders)[0]
    item = holders[packet]["item_id"]
    on_item = {e["rater_id"] for e in holders.values() if e["item_id"] == item}
    free = next(r for r in RATERS if r not in on_item)
    busy = next(r for r in on_item if r != holders[packet]["rater_id"])
    with pytest.raises(RoundError, match="already reads item"):
        rounds.reassign("rd1", packet, busy, "ill", root=root)
    with pytest.raises(RoundError, match="needs a reason"):
        rounds.reassign("rd1", packet, free, "  ", root=root)
    with pytest.raises(RoundError, match="not a rater of round"):
        rounds.reassign("rd1", packet, "zoe", "ill", root=root)
    with pytest.raises(RoundError, match="already submitted"):
        rounds.reassign("rd1", packet, free, "ill", submitted_by_holder=True, root=root)
    event = rounds.reassign("rd1", packet, free, "away  this week", acted_by="lea", root=root)
    assert (event["from_rater_id"], event["rater_id"], event["reason"]) == (holders[packet]["rater_id"], free,
                                                                           "away this week")
    assert rounds.packet_holders("rd1", root)[packet]["rater_id"] == free
    assert packet in rounds.rater_packets("rd1", free, root)
    assert [e["action"] for e in rounds.assignment_events("rd1", root)].count("reassign") == 1


def _readings(table, measure="accuracy", scale=(0, 2), round_id="rd1"):
    return pd.DataFrame([(round_id, measure, 1, u, r, str(v), *scale) for u, r, v in table],
                        columns=READING_COLUMNS)


# reply u3 has no reading by c, u4 none by b (missing readers)
HAND = [("u1", "a", 2), ("u1", "b", 2), ("u1", "c", 2),
        ("u2", "a", 1), ("u2", "b", 0), ("u2", "c", 1),
        ("u3", "a", 0), ("u3", "b", 0),
        ("u4", "a", 2), ("u4", "c", 1)]


def test_a_round_file_without_its_columns_is_named(con, dirs):
    """A definition written by hand without due_date made `round list` a KeyError traceback (trial); an assignment
    file without reason / from_rater_id was read as if it had them."""
    _create(con, dirs)
    defs = dirs["root"] / "definitions"
    text = (defs / "rd1.csv").read_text(encoding="utf-8").splitlines()
    header = text[0].split(",")
    drop = header.index("due_date")
    (defs / "rd9.csv").write_text("\n".join(",".join(v for i, v in enumerate(line.split(",")) if i != drop)
                                             for line in [text[0], text[1].replace("rd1", "rd9", 1)]) + "\n")
    with pytest.raises(RoundError, match=r"rd9\.csv:1: missing column\(s\) due_date \(round files are written by"):
        rounds.list_rounds(dirs["root"])
    with pytest.raises(RoundError, match=r"rd9\.csv:1: missing column\(s\) due_date"):
        rounds.load_round("rd9", dirs["root"])
    (defs / "rd9.csv").unlink()
    events = sorted((dirs["root"] / "assignments" / "rd1").glob("*.csv"))[0]
    (events.parent / "20991231T000000000000Z_reassign_x.csv").write_text(
        "round_id,packet_id,item_id,reader_slot,rater_id,action,acted_by,acted_at,event_row\n"
        "rd1,rd1-i01-1,i01,1,zoe,reassign,lead,2026-12-02T00:00:00Z,1\n")
    with pytest.raises(RoundError, match=r"_reassign_x\.csv:1: missing column\(s\) from_rater_id, reason"):
        rounds.packet_holders("rd1", dirs["root"])


def test_round_agreement_by_hand():
    row = round_agreement(_readings(HAND)).iloc[0]
    assert (row.n_replies_read, row.n_replies_pairable, row.n_readers, row.n_readings) == (4, 4, 3, 10)
    assert row.exact_agreement == pytest.approx(0.5)  # u1 and u3 agree, u2 and u4 do not
    # coincidences: o00=2, o01=o10=1, o11=1, o12=o21=1, o22=3; n0=3, n1=3, n2=4, n=10
    # nominal: 1 - (n-1) * sum_{c!=k} o_ck / sum_{c!=k} n_c n_k = 1 - 9 * 4 / 66
    assert row.alpha_nominal == pytest.approx(1 - 36 / 66)
    # ordinal: delta01^2 = 3^2, delta12^2 = 3.5^2, delta02^2 = 6.5^2; 1 - 9 * 42.5 / 1470
    assert row.alpha_ordinal == pytest.approx(1 - 9 * 42.5 / 1470)


def test_round_pair_agreement_by_hand_shared_replies_only():
    pairs = round_pair_agreement(_readings(HAND)).set_index(["rater_a", "rater_b"])
    # a-b on u1..u3: po = 2/3, pe = 1/3*2/3 + 1/3*0 + 1/3*1/3 = 1/3 -> kappa 0.5
    ab = pairs.loc[("a", "b")]
    assert (ab.n_shared, ab.n_agree) == (3, 2) and ab.cohen_kappa == pytest.approx(0.5)
    # a-c on u1, u2, u4: po = 2/3, pe = 0 + 1/3*2/3 + 2/3*1/3 = 4/9 -> kappa 0.4
    ac = pairs.loc[("a", "c")]
    assert (ac.n_shared, ac.n_agree) == (3, 2) and ac.cohen_kappa == pytest.approx(0.4)
    # b-c on u1, u2: po = 1/2, pe = 1/4 -> kappa 1/3
    bc = pairs.loc[("b", "c")]
    assert bc.n_shared == 2 and bc.cohen_kappa == pytest.approx(1 / 3)
    from sklearn.metrics import cohen_kappa_score

    assert ab.kappa_linear == pytest.approx(cohen_kappa_score([2, 1, 0], [2, 0, 0], labels=[0, 1, 2],
                                                              weights="linear"))
    assert pd.isna(ab.kappa_reason)


def test_undefined_agreement_is_null_with_reason():
    one_reader = round_agreement(_readings([("u1", "a", 1), ("u2", "a", 2)])).iloc[0]
    assert pd.isna(one_reader.exact_agreement) and one_reader.exact_agreement_reason == "no reply has two readers yet"
    assert pd.isna(one_reader.alpha_nominal) and one_reader.alpha_nominal_reason
    same = round_pair_agreement(_readings([("u1", "a", 1), ("u1", "b", 1)])).iloc[0]
    assert same.exact_agreement == 1 and pd.isna(same.cohen_kappa)
    assert same.kappa_reason == "undefined: both raters used a single, identical category"
    ready = round_pair_agreement(_readings([("u1", "a", "true"), ("u1", "b", "false"), ("u2", "a", "true"),
                                            ("u2", "b", "true")], measure="ready", scale=(None, None))).iloc[0]
    assert pd.isna(ready.kappa_linear) and "binary decision" in ready.kappa_reason
    assert ready.exact_agreement == pytest.approx(0.5)


def test_adjudication_template_lists_disagreements_once_per_criterion(con, dirs, tmp_path):
    _create(con, dirs)
    con.execute("create table fct_round_disagreements (round_id varchar, response_id varchar, measure varchar, "
                "readings varchar)")
    con.execute("insert into fct_round_disagreements values ('rd1', 'resp-03', 'accuracy', 'ana=2; ben=1'), "
                "('rd1', 'resp-03', 'ready', 'ana=true; ben=false'), ('other', 'resp-04', 'accuracy', 'x=1; y=2')")
    con.execute("create table fct_round_readings (round_id varchar, response_id varchar, measure varchar, "
                "rater_id varchar, value varchar)")
    con.execute("insert into fct_round_readings values ('rd1', 'resp-03', 'accuracy', 'ben', '1'), "
                "('rd1', 'resp-03', 'accuracy', 'ana', '2'), ('rd1', 'resp-03', 'tone', 'ben', '1'), "
                "('rd1', 'resp-03', 'tone', 'ana', '1'), ('other', 'resp-03', 'tone', 'x', '0')")
    con.execute("drop table dim_rubric_levels")
    con.execute("create table dim_rubric_levels (suite varchar, rubric_id varchar, rubric_version integer, "
                "criterion varchar, criterion_order integer)")
    con.execute("insert into dim_rubric_levels values ('s1', 'r1', 2, 'tone', 2), ('s1', 'r1', 2, 'accuracy', 1), "
                "('s1', 'r1', 1, 'old', 1)")
    out = tmp_path / "adj.csv"
    assert rounds.adjudication_template(con, "rd1", out, root=dirs["root"]) == 2
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [(r["response_id"], r["criterion"], r["score"], r["readings"]) for r in rows] == [
        ("resp-03", "accuracy", "", "ana=2; ben=1"), ("resp-03", "tone", "", "agreed: ana=1; ben=1")]
    with pytest.raises(FileExistsError):
        rounds.adjudication_template(con, "rd1", out, root=dirs["root"])
    con.execute("delete from fct_round_disagreements where round_id = 'rd1'")
    with pytest.raises(RoundError, match="disagree on no reply"):
        rounds.adjudication_template(con, "rd1", tmp_path / "none.csv", root=dirs["root"])
    assert not (tmp_path / "none.csv").exists()
