"""validate-decisions rejects what would silently lose a group's answer (a duplicated case, a P&L value written as
text) with file:line:column; the warehouse keeps every claim as written (claimed_text)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evalhouse.decisions.ingest import pnl_claims
from evalhouse.decisions.validate import json_positions, validate_decisions_raw

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "decisions"
A_FILE = "results/exp02_complete/A_dashboard_human_results.json"


@pytest.fixture()
def root(tmp_path) -> Path:
    root = tmp_path / "decisions"
    shutil.copytree(DATA, root, ignore=shutil.ignore_patterns("*.parquet"))
    return root


def _edit_a(root: Path) -> Path:
    """Group A writes "lots" for C02's revenue_delta and records C01 a second time for the same attempt."""
    path = root / A_FILE
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["cards"][1]["card"]["P&L IMPACT"]["revenue_delta"] = "lots"
    doc["cards"].append(json.loads(json.dumps(doc["cards"][0])))
    path.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def _line_col(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    idx = -1
    for _ in range(nth + 1):
        idx = text.index(needle, idx + 1)
    line = text.count("\n", 0, idx) + 1
    return line, idx - (text.rfind("\n", 0, idx) + 1) + 1


def test_text_pnl_value_and_duplicated_case_are_rejected_with_line_and_column(root):
    path = _edit_a(root)
    text = path.read_text(encoding="utf-8")
    lots_line, lots_col = _line_col(text, '"lots"')
    n_c01 = text.count('"case_id": "C01"')
    dup_line, dup_col = _line_col(text, '"C01"', nth=n_c01 - 1)
    problems = validate_decisions_raw(root)
    assert problems == [
        f"{path}:{lots_line}:{lots_col}: cards/1/card/P&L IMPACT/revenue_delta: \"lots\" is a string; a P&L field "
        "is a JSON number or null",
        f"{path}:{dup_line}:{dup_col}: cards/10/case_id: case 'C01' is recorded twice for attempt '001' (first at "
        "cards/0); keep one card per case and attempt",
    ]


def test_the_shipped_inputs_pass_and_a_later_attempt_is_a_note():
    notes: list[str] = []
    assert validate_decisions_raw(DATA, notes) == []
    assert notes == [f"{DATA}/results/exp04_duplicates/v2_results.json: case 'C01' is recorded in attempts 001, 002; "
                     "the comparison reports it (fct_decisions__missing_cases) and leaves it out of the paired metrics"]


def test_cli_exits_1_naming_the_problems(root, monkeypatch):
    from evalhouse.cli import app

    _edit_a(root)
    monkeypatch.setenv("EVALHOUSE_DECISIONS_DIR", str(root))
    res = CliRunner().invoke(app, ["validate-decisions"])
    assert res.exit_code == 1 and "decision inputs: OK" not in res.output
    assert '"lots" is a string' in res.output and "recorded twice for attempt '001'" in res.output


def test_json_positions():
    text = '{"a": [1, {"b": "lots"}],\n  "c": null, "d": {}}'
    pos = json_positions(text)
    assert pos[("a", 1, "b")] == (1, 17) and pos[("c",)] == (2, 8) and pos[("d",)] == (2, 19)
    assert json_positions("{not json") == {}


def test_every_claim_is_kept_as_written(root):
    _edit_a(root)
    claims = pnl_claims(root)
    a = claims[(claims.experiment_id == "exp02_complete") & (claims.group_id == "A_dashboard_human")]
    row = a[(a.card_position == "2") & (a.field_name == "revenue_delta")].iloc[0]
    assert (row.json_kind, row.claimed_text) == ("string", "lots")
    b = claims[(claims.experiment_id == "exp01_example") & (claims.group_id == "B_frontier_direct")
               & (claims.case_id == "C04") & (claims.field_name == "revenue_vs_budget")].iloc[0]
    assert (b.json_kind, b.claimed_text) == ("object", '{"actual":1,"budget":2,"variance":-1}')
    written = claims[claims.json_kind.isin(["number", "string", "object", "array", "boolean"])]
    assert written.claimed_text.notna().all() and claims[claims.json_kind.isin(["null", "missing"])].claimed_text.isna().all()


def test_the_mart_keeps_claimed_text_and_types_only_numbers(warehouse):
    rows = warehouse.execute(
        "select json_kind, claimed_text, claimed_value, verdict from fct_decisions__financial_verdicts "
        "where experiment_id = 'exp01_example' and group_id = 'B_frontier_direct' and case_id = 'C04' "
        "and field_name = 'revenue_vs_budget'").fetchall()
    assert rows == [("object", '{"actual":1,"budget":2,"variance":-1}', None, "protocol_invalid")]
    assert warehouse.execute("select count(*) from fct_decisions__financial_verdicts where claimed_text is null "
                             "and json_kind not in ('null', 'missing')").fetchone() == (0,)
