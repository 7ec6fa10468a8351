"""The GRADE example pack: deterministic (seed 42), gold computed from the shipped CSV data, labelled synthetic."""
import csv
import json
from pathlib import Path

from evalhouse.grade.example_pack import compute_ground_truth, render_pack

PACK = Path(__file__).resolve().parents[2] / "data" / "grade" / "packs" / "edu_example"


def _read_csv(path):
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def test_generator_is_deterministic_and_matches_the_shipped_pack():
    first, second = render_pack(42), render_pack(42)
    assert first == second
    for rel, text in first.items():
        assert (PACK / rel).read_text(encoding="utf-8") == text, rel
    assert render_pack(43)["responses.jsonl"] != first["responses.jsonl"]


def test_ground_truth_is_computed_from_the_shipped_data():
    data = {}
    for name in ["schools", "tutors", "groups", "sessions", "students", "studies"]:
        rows = _read_csv(PACK / "data" / f"{name}.csv")
        for r in rows:
            for k in ("minutes", "sessions_attended", "pre_score", "post_score", "n_students"):
                if k in r:
                    r[k] = int(r[k])
        data[name] = rows
    gt = json.loads((PACK / "ground_truth.json").read_text(encoding="utf-8"))
    assert gt["synthetic"] is True and gt["seed"] == 42
    assert compute_ground_truth(data) == gt["values"]
    # a few values checked by hand from sessions.csv
    oct_rows = [s for s in data["sessions"] if s["month"] == "2024-10"]
    assert gt["values"]["oct_sessions_scheduled"] == str(len(oct_rows)) == "192"
    cancelled = sum(1 for s in oct_rows if s["status"] == "cancelled")
    assert gt["values"]["oct_cancel_rate_pct"] == f"{cancelled * 100 / 192:.2f}" == "11.98"
    assert gt["values"]["top_school_name"] == "Große Allee Grundschule"


def test_gold_facts_copy_the_ground_truth_and_tasks_cover_all_tracks():
    gt = json.loads((PACK / "ground_truth.json").read_text(encoding="utf-8"))["values"]
    facts = _read_csv(PACK / "gold_facts.csv")
    assert facts and all(f["gold_value"] == gt[f["ground_truth_key"]] for f in facts)
    tasks = _read_csv(PACK / "tasks.csv")
    assert sorted({int(t["track"]) for t in tasks}) == [1, 2, 3, 4, 5]
    pack = _read_csv(PACK / "pack.csv")[0]
    assert pack["synthetic"] == "true" and "SYNTHETIC" in pack["title"]
    assert "SYNTHETIC" in (PACK / "README.md").read_text(encoding="utf-8")
    responses = [json.loads(line) for line in (PACK / "responses.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(responses) == 3 * 10 * 5
    assert {r["run"] for r in responses} == {1, 2, 3, 4, 5}
