"""Great Expectations suites on the raw Larkfield CSVs: pass on the shipped data, fail clearly on broken copies."""
import shutil
from pathlib import Path

from evalhouse.expectations import validate_larkfield

SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "larkfield"


def test_shipped_inputs_meet_every_expectation():
    assert validate_larkfield(SEEDS) == []


def test_broken_inputs_fail_naming_file_and_column(tmp_path):
    for f in SEEDS.glob("*.csv"):
        shutil.copy(f, tmp_path / f.name)
    scores = tmp_path / "larkfield_reference_scores.csv"
    lines = scores.read_text(encoding="utf-8").splitlines()
    lines[1] = lines[1].replace("S07,Mistral 7B (local),A,2,0,2,1,5", "S07,Mistral 7B (local),A,2.5,0,2,1,5")
    lines.append(lines[2])  # a duplicated reply
    lines.append(lines[3].replace("S07,", "X99,", 1))  # an unknown ticket
    scores.write_text("\n".join(lines) + "\n", encoding="utf-8")
    failures = [str(f) for f in validate_larkfield(tmp_path)]
    assert any(f.startswith("larkfield_reference_scores.csv:correctness: ExpectColumnValuesToBeInSet failed")
               and "2.5" in f for f in failures)
    assert any("ticket_id,model_run: ExpectCompoundColumnsToBeUnique" in f for f in failures)
    assert any("unknown tickets ['X99']" in f for f in failures)
