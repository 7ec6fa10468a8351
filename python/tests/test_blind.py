"""Blind export: letters in a seeded order, no model names in the packets, the key kept apart."""
import csv
import json

import pytest

from evalhouse.ratings import blind


def test_export_is_blind_and_deterministic(warehouse, tmp_path):
    s1 = blind.export(warehouse, tmp_path / "a", "larkfield", seed=42, export_id="x1", keys_dir=tmp_path / "k")
    blind.export(warehouse, tmp_path / "b", "larkfield", seed=42, export_id="x1", keys_dir=tmp_path / "k2")
    assert s1["packets"] == 6 and s1["replies"] == 11  # the 11 printed replies of 6 tickets
    k1 = (tmp_path / "k" / "x1.csv").read_text()
    assert k1 == (tmp_path / "k2" / "x1.csv").read_text()  # same seed, same letters
    systems = {r[0] for r in warehouse.execute("select distinct system_id from dim_responses").fetchall()}
    for f in (tmp_path / "a").rglob("*"):
        if f.is_file():
            text = f.read_text(encoding="utf-8")
            assert not any(s in text for s in systems), f"{f} reveals a model name"
            assert "response_id" not in text
    assert not list((tmp_path / "a").rglob("x1.csv"))  # the key is not in the packets folder
    packet = json.loads((tmp_path / "a" / "packets" / "x1-S07.json").read_text(encoding="utf-8"))
    assert [r["letter"] for r in packet["replies"]] == ["A", "B", "C", "D"]
    assert [c["criterion"] for c in packet["criteria"]] == [
        "correctness", "completeness", "format_compliance", "appropriate_abstention"]
    keys = list(csv.DictReader(open(tmp_path / "k" / "x1.csv")))
    s07 = {k["letter"]: k["response_id"] for k in keys if k["item_id"] == "S07"}
    texts = dict(warehouse.execute(
        "select response_id, response_text from dim_responses where item_id = 'S07'").fetchall())
    assert {r["letter"]: r["text"] for r in packet["replies"]} == {letter: texts[rid] for letter, rid in s07.items()}


def test_other_seed_other_order_and_existing_key_refused(warehouse, tmp_path):
    orders = set()
    for seed in range(5):
        blind.export(warehouse, tmp_path / f"o{seed}", "larkfield", seed=seed, export_id=f"s{seed}",
                     keys_dir=tmp_path / "k", items=["S07"])
        orders.add(tuple(r["response_id"] for r in csv.DictReader(open(tmp_path / "k" / f"s{seed}.csv"))))
    assert len(orders) > 1
    with pytest.raises(blind.ExportError, match="already exists"):
        blind.export(warehouse, tmp_path / "again", "larkfield", seed=0, export_id="s0", keys_dir=tmp_path / "k")


def test_letters_beyond_z():
    assert blind.letters(28)[-3:] == ["Z", "AA", "AB"]


def test_export_id_cannot_name_a_path(warehouse, tmp_path):
    for bad in ("../../out/leak", "a/b", "", ".hidden"):
        with pytest.raises(blind.ExportError, match="letters, digits"):
            blind.export(warehouse, tmp_path / "o", "larkfield", seed=1, export_id=bad, keys_dir=tmp_path / "k")
    assert not (tmp_path / "k").exists() or not list((tmp_path / "k").iterdir())


def test_each_packet_uses_its_items_rubric_in_a_suite_with_several(warehouse, tmp_path):
    # Sottana has one rubric per task; a grammar-correction item's packet uses the GEC rubric only.
    item = warehouse.execute("select item_id from dim_items where suite = 'sottana' and item_id like '%gec%' "
                             "order by item_id limit 1").fetchone()[0]
    blind.export(warehouse, tmp_path / "o", "sottana", seed=1, export_id="s1", keys_dir=tmp_path / "k", items=[item])
    packet = json.loads((tmp_path / "o" / "packets" / f"s1-{item}.json").read_text(encoding="utf-8"))
    rubric = warehouse.execute(
        "select distinct f.rubric_id from fct_ratings f join dim_responses r on r.response_id = f.response_id "
        "where r.item_id = ?", [item]).fetchall()
    assert [(packet["rubric_id"],)] == rubric
    expected = {r[0] for r in warehouse.execute(
        "select distinct criterion from dim_rubric_levels where rubric_id = ?", [packet["rubric_id"]]).fetchall()}
    assert {c["criterion"] for c in packet["criteria"]} == expected
