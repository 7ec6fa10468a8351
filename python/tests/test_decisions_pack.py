"""Case pack generator, blind export and CLI (no warehouse needed)."""
from __future__ import annotations

import json
import re
import shutil
from decimal import Decimal as D
from pathlib import Path

import pytest
from typer.testing import CliRunner

from evalhouse.decisions import casepack
from evalhouse.decisions.export import export_benchmark
from evalhouse.decisions.reference import case_reference
from evalhouse.decisions.validate import validate_decisions_raw

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "data" / "decisions"
PACK = DATA / "pack"


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("regen") / "decisions"
    (root / "pack" / "cases" / "R01").mkdir(parents=True)
    shutil.copy(PACK / "cases" / "R01" / "pos.parquet", root / "pack" / "cases" / "R01" / "pos.parquet")
    casepack.generate(root)
    return root


def test_generator_is_deterministic_and_matches_the_shipped_pack(regenerated):
    generated = sorted(p.relative_to(regenerated) for p in regenerated.rglob("*") if p.is_file())
    assert len(generated) >= 60
    for rel in generated:
        assert (DATA / rel).read_bytes() == (regenerated / rel).read_bytes(), rel


def test_seed_variant_changes_rows_not_cases(tmp_path):
    root = tmp_path / "variant"
    (root / "pack" / "cases" / "R01").mkdir(parents=True)
    shutil.copy(PACK / "cases" / "R01" / "pos.parquet", root / "pack" / "cases" / "R01" / "pos.parquet")
    try:
        casepack.generate(root, seed=7)
    finally:
        casepack._seed = casepack.SEED
    assert (root / "pack/cases/C01/pos.csv").read_bytes() != (PACK / "cases/C01/pos.csv").read_bytes()
    assert sorted(p.name for p in (root / "pack/cases").iterdir()) == sorted(p.name for p in (PACK / "cases").iterdir())
    assert not case_reference(root / "pack/cases/C07", casepack.PERIODS).source_valid


def test_case_ids_carry_no_scenario_names():
    ids = sorted(p.name for p in (PACK / "cases").iterdir())
    assert ids == [f"C{i:02d}" for i in range(1, 11)] + ["R01"]
    assert all(re.fullmatch(r"[CR][0-9]{2}", i) for i in ids)


def test_csv_quirks_are_in_the_raw_files():
    assert (PACK / "cases/C02/pos.csv").read_bytes().startswith(b"\xef\xbb\xbfdate,")
    assert b"\r\n" in (PACK / "cases/C02/pos.csv").read_bytes()
    assert b'"1,200"' in (PACK / "cases/C03/pos.csv").read_bytes()
    c04 = (PACK / "cases/C04/pos.csv").read_text(encoding="utf-8")
    assert '"¥1,200"' in c04 and ",-¥350," in c04
    c05 = (PACK / "cases/C05/pos.csv").read_text(encoding="utf-8")
    assert ",007," in c05 and ",7," in c05
    c07 = (PACK / "cases/C07/pos.csv").read_text(encoding="utf-8").splitlines()
    assert c07[6].split(",")[4] == "" and c07[18].split(",")[5] == "N/A"  # data rows 6 and 18


def test_reference_marks_c07_invalid_and_recomputes_c04_exactly():
    ref = case_reference(PACK / "cases" / "C07", casepack.PERIODS)
    assert not ref.source_valid and ref.problems == ["pos.csv line 7: quantity", "pos.csv line 19: unit_price"]
    assert set(ref.values.values()) == {None}
    c09 = case_reference(PACK / "cases" / "C09", casepack.PERIODS)
    assert c09.values["gross_margin_delta"] == D("-8473.625")


def test_protocol_carries_definitions_thresholds_permissions_and_output_protocol():
    proto = json.loads((PACK / "protocol.json").read_text(encoding="utf-8"))
    assert {"business_definitions", "decision_priorities", "numeric_thresholds", "permission_boundaries",
            "output_protocol"} <= set(proto)
    assert proto["numeric_thresholds"]["abs_tolerance"] == "0.01"
    assert proto["output_protocol"]["card_fields_in_order"][0] == "BUSINESS STATE"
    assert proto["output_protocol"]["card_fields_in_order"][-1] == "CONFIDENCE"


def _golden_strings() -> set[str]:
    golden = json.loads((PACK / "evaluation" / "golden.json").read_text(encoding="utf-8"))
    out = {"accepted_decisions", "golden_marker", "act_is_unsafe", "expected_decision"}
    for case in (v for k, v in golden.items() if not k.startswith("_")):
        out |= {case["golden_marker"], case["rationale"]}
    return out


def test_blind_package_has_no_golden_file_or_value(tmp_path):
    out = tmp_path / "benchmark"
    report = export_benchmark(PACK, out)
    files = [p for p in out.rglob("*") if p.is_file()]
    assert len(report.copied) == len(files) - 1 - 4  # + README + 4 result files
    assert not [p for p in files if "golden" in p.name.lower() or "evaluation" in p.parts]
    needles = _golden_strings()
    assert len(needles) > 20
    for p in files:
        blob = p.read_bytes()
        for needle in needles:
            assert needle.encode("utf-8") not in blob, (p, needle)
    # the package is self-contained: every case, its context, the protocol and the case index
    for cid in [f"C{i:02d}" for i in range(1, 11)]:
        for name in ("pos.csv", "budget.csv", "inventory.csv", "context.md"):
            assert (out / "cases" / cid / name).read_bytes() == (PACK / "cases" / cid / name).read_bytes()
    assert (out / "cases" / "R01" / "pos.parquet").is_file() and (out / "cases" / "R01" / "SOURCE.md").is_file()
    assert (out / "protocol.json").read_bytes() == (PACK / "protocol.json").read_bytes()


def test_reexport_never_overwrites_an_existing_result_file(tmp_path):
    out = tmp_path / "benchmark"
    first = export_benchmark(PACK, out)
    assert sorted(first.created_result_files) == sorted(f"{g}_results.json" for g in casepack.GROUPS)
    template = json.loads((out / "A_dashboard_human_results.json").read_text(encoding="utf-8"))
    assert template["status"] == "not_run" and template["cards"] == []
    edited = out / "A_dashboard_human_results.json"
    edited_bytes = b'{"group": "A_dashboard_human", "status": "completed", "cards": [{"case_id": "C01"}]}\r\n  '
    edited.write_bytes(edited_bytes)
    (out / "B_frontier_direct_results.json").unlink()
    second = export_benchmark(PACK, out)
    assert edited.read_bytes() == edited_bytes
    assert second.created_result_files == ["B_frontier_direct_results.json"]
    assert "A_dashboard_human_results.json" in second.kept_result_files


def test_export_refuses_a_target_inside_the_pack(tmp_path):
    with pytest.raises(ValueError):
        export_benchmark(PACK, PACK / "out")
    with pytest.raises(FileNotFoundError):
        export_benchmark(tmp_path, tmp_path / "x")


def test_cli_export_benchmark_and_keep(tmp_path):
    from evalhouse.cli import app

    runner = CliRunner()
    out = tmp_path / "pkg"
    res = runner.invoke(app, ["export-benchmark", str(out)])
    assert res.exit_code == 0, res.output
    assert "created empty result file D_human_agent_results.json" in res.output
    (out / "D_human_agent_results.json").write_text("hand edited", encoding="utf-8")
    res = runner.invoke(app, ["export-benchmark", str(out)])
    assert "kept existing result file D_human_agent_results.json (not overwritten)" in res.output
    assert (out / "D_human_agent_results.json").read_text(encoding="utf-8") == "hand edited"


def test_validate_names_file_row_and_column(tmp_path):
    assert validate_decisions_raw(DATA) == []
    root = tmp_path / "d"
    shutil.copytree(DATA, root, ignore=shutil.ignore_patterns("*.parquet"))
    (root / "results/exp01_example/B_frontier_direct_results.json").write_text('{"group": "B",\n "cards": [,]}')
    (root / "pack/cases/C01/budget.csv").write_text("metric,amt\nrevenue_budget,1\n")
    problems = validate_decisions_raw(root)
    assert any("B_frontier_direct_results.json" in p and "line 2 column 12" in p for p in problems), problems
    assert any("C01/budget.csv: row 1 (header)" in p for p in problems), problems
