"""Decision inputs in other number formats and delimiters, and cases that cannot be recomputed.

Builds the P&L path (`dbt build --select +fct_decisions__pnl_recomputed`) on a small hand-written pack in a temporary
folder and DuckDB file (--vars decisions_dir), so the project's warehouse is not touched:
- E01 declares csv_delimiter ';', decimal ',', thousands '.': "1.401,40" -> 1401.40, "22,30" -> 22.30;
- F01 declares decimal ',' and thousands 'space' (delimiter ';' detected from the header): "1 200,50 €" with U+202F;
- G01 (default locale) has no POS row in the base period;
- H01's pos.csv header is unreadable and K01 has a row with one field too many: only those cases are invalid;
- L01 declares an unknown delimiter: its three files cannot be read and cases.csv's line 7 is named.
Every expected value below is computed by hand in the comments.
"""
from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal as D
from pathlib import Path

import duckdb
import pandas as pd
import pytest

from evalhouse.decisions import casepack
from evalhouse.decisions.case_files import case_files, detect_delimiter
from evalhouse.decisions.money import Locale, parse_amount
from evalhouse.decisions.reference import case_reference

ROOT = Path(__file__).resolve().parents[2]
DBT = Path(sys.executable).parent / "dbt"
NNBSP = "\u202f"
POS_HEADER = ["date", "store_id", "channel", "sku", "quantity", "unit_price", "unit_cost", "promo_flag"]


def _write(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def make_pack(root: Path) -> Path:
    cases = root / "pack" / "cases"
    _write(root / "pack" / "cases.csv", [
        "case_id,case_role,currency,base_start,base_end,current_start,current_end,pos_file,csv_delimiter,"
        "decimal_separator,thousands_separator",
        *(f"{c},core,EUR,2024-09-02,2024-09-29,2024-09-30,2024-10-27,pos.csv,{loc}"
          for c, loc in [("E01", ';,",",.'), ("F01", ',",",space'), ("G01", ",,"), ("H01", ",,"), ("K01", ",,"),
                         ("L01", "x,,")]),
    ])
    # E01: base 2 x 1401.40 = 2802.80 (cost 2 x 900.10 = 1800.20); current online 3 x 22.30 = 66.90 (cost 30.15)
    _write(cases / "E01" / "pos.csv", [";".join(POS_HEADER),
                                       "2024-09-03;012;offline;SKU-1;2;1.401,40;900,10;N",
                                       "2024-10-01;012;online;SKU-1;3;22,30;10,05;Y"])
    _write(cases / "E01" / "budget.csv", ["metric;amount", "revenue_budget;1.000,00", "gross_margin_budget;30,00",
                                          "online_fulfilment_cost_per_unit;1,50"])
    _write(cases / "E01" / "inventory.csv", [
        "store_id;sku;opening_units;received_units;counted_closing_units;unit_cost", "012;SKU-1;10;0;6;900,10"])
    # F01: base 1 x 1200.50 (cost 1000.25); current 2 x 1200.50 = 2401.00 (cost 2000.50)
    price, cost = f"1{NNBSP}200,50 €", f"1{NNBSP}000,25 €"
    _write(cases / "F01" / "pos.csv", [";".join(POS_HEADER), f"2024-09-04;031;offline;SKU-2;1;{price};{cost};N",
                                       f"2024-10-02;031;offline;SKU-2;2;{price};{cost};N"])
    _write(cases / "F01" / "budget.csv", ["metric;amount", f"revenue_budget;2{NNBSP}000,00 €",
                                          "gross_margin_budget;400,00", "online_fulfilment_cost_per_unit;0"])
    _write(cases / "F01" / "inventory.csv", [
        "store_id;sku;opening_units;received_units;counted_closing_units;unit_cost", f"031;SKU-2;5;0;3;{cost}"])
    # G01: current period only
    default_files = {
        "budget.csv": ["metric,amount", "revenue_budget,90", "gross_margin_budget,40",
                       "online_fulfilment_cost_per_unit,0"],
        "inventory.csv": ["store_id,sku,opening_units,received_units,counted_closing_units,unit_cost",
                          "012,SKU-1,1,0,0,60"],
    }
    for cid in ("G01", "H01", "K01", "L01"):
        for name, lines in default_files.items():
            _write(cases / cid / name, lines)
    _write(cases / "G01" / "pos.csv", [",".join(POS_HEADER), "2024-10-01,012,offline,SKU-1,1,100,60,N"])
    _write(cases / "H01" / "pos.csv", ["date|store|channel|sku|qty|price|cost|promo",
                                       "2024-09-03|012|offline|SKU-1|1|100|60|N"])
    _write(cases / "K01" / "pos.csv", [",".join(POS_HEADER), "2024-09-03,012,offline,SKU-1,1,100,60,N",
                                       "2024-10-01,012,offline,SKU-1,1,100,60,N,surplus"])
    _write(cases / "L01" / "pos.csv", [",".join(POS_HEADER), "2024-10-01,012,offline,SKU-1,1,100,60,N"])
    return root


EXPECTED = {
    "E01": {"revenue_delta": D("-2735.90"), "gross_margin_delta": D("-965.85"), "contribution_delta": D("-970.35"),
            "revenue_vs_budget": D("-933.10"), "gross_margin_vs_budget": D("6.75"),
            "unexplained_inventory_exposure": D("900.10")},  # |10 + 0 - 3 - 6| x 900.10
    "F01": {"revenue_delta": D("1200.50"), "gross_margin_delta": D("200.25"), "contribution_delta": D("200.25"),
            "revenue_vs_budget": D("401.00"), "gross_margin_vs_budget": D("0.50"),
            "unexplained_inventory_exposure": D("0")},
    "G01": {"revenue_delta": None, "gross_margin_delta": None, "contribution_delta": None,
            "revenue_vs_budget": D("10"), "gross_margin_vs_budget": D("0"), "unexplained_inventory_exposure": D("0")},
}


@pytest.mark.parametrize("text, locale, expected", [
    ("1.401,40", Locale(",", "."), D("1401.40")), ("22,30", Locale(",", "."), D("22.30")),
    (f"1{NNBSP}200,50 €", Locale(",", "space"), D("1200.50")), ("1\u00a0200,50", Locale(",", "space"), D("1200.50")),
    ("-12,5 €", Locale(",", "space"), D("-12.5")), ("€1.200", Locale(",", "."), D("1200")),
    ("1.401,40", Locale(), None), ("12.5", Locale(",", "."), None), ("1 20,5", Locale(",", "space"), None),
    ("1,200", Locale(",", "none"), D("1.2")), ("€1 €", Locale(",", "space"), None),
])
def test_parse_amount_in_declared_locales(text, locale, expected):
    assert parse_amount(text, locale) == expected


def test_locale_rejects_equal_separators():
    with pytest.raises(ValueError, match="both"):
        Locale(",", ",")


def test_delimiter_detected_only_when_unambiguous():
    assert detect_delimiter("date;store_id;channel;sku;quantity;unit_price;unit_cost;promo_flag", POS_HEADER) == (";", None)
    assert detect_delimiter("date,store_id,channel,sku,quantity,unit_price,unit_cost,promo_flag", POS_HEADER,
                            ",") == (",", None)
    delim, why = detect_delimiter("date,store_id,channel,sku,quantity,unit_price,unit_cost,promo_flag", POS_HEADER, ";")
    assert delim is None and "declared delimiter ';'" in why
    assert detect_delimiter("date|store|x", POS_HEADER)[0] is None


def test_case_files_name_the_unreadable_file(tmp_path):
    root = make_pack(tmp_path / "d")
    files = case_files(root).set_index("source_file")
    e01 = files.loc[f"{root}/pack/cases/E01/pos.csv"]
    assert (e01.csv_delimiter, e01.decimal_separator, e01.thousands_separator, e01.locale_source) == (";", ",", ".", "declared")
    f01 = files.loc[f"{root}/pack/cases/F01/budget.csv"]
    assert (f01.csv_delimiter, f01.thousands_separator) == (";", "space")
    h01 = files.loc[f"{root}/pack/cases/H01/pos.csv"]
    assert h01.file_problem.startswith(f"{root}/pack/cases/H01/pos.csv: row 1 (header): columns 'date|store|")
    bad_declaration = f"{root}/pack/cases.csv:7:csv_delimiter: 'x' is not one of ,, ;, tab, |"
    assert files[files.case_id == "L01"].file_problem.tolist() == [bad_declaration] * 3
    assert files.file_problem.notna().sum() == 4


def test_python_reference_reads_the_declared_locales(tmp_path):
    root = make_pack(tmp_path / "d")
    for cid, values in EXPECTED.items():
        assert case_reference(root / "pack" / "cases" / cid, casepack.PERIODS).values == values, cid
    assert not case_reference(root / "pack" / "cases" / "H01", casepack.PERIODS).source_valid
    assert not case_reference(root / "pack" / "cases" / "K01", casepack.PERIODS).source_valid


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("decisions_locale")
    root = make_pack(tmp / "decisions")
    db = tmp / "locale.duckdb"
    env = dict(os.environ, EVALHOUSE_DB=str(db), DBT_PROFILES_DIR=str(ROOT), EVALHOUSE_PROJECT_DIR=str(ROOT),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    uci = ROOT / "data" / "decisions" / "pack" / "cases" / "R01" / "pos.parquet"
    run = subprocess.run(
        [str(DBT), "build", "--no-use-colors", "--select", "+fct_decisions__pnl_recomputed", "--indirect-selection", "cautious",
         "--exclude", "resource_type:unit_test", "assert_decisions_csv_edge_cases", "--target-path", str(tmp / "target"), "--log-path", str(tmp / "logs"),
         "--vars", f"{{decisions_dir: '{root}', decisions_uci_parquet: '{uci}'}}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    con = duckdb.connect(str(db), read_only=True)
    yield root, con
    con.close()


def _recomputed(con) -> dict:
    return {(c, f): (s, v, r) for c, f, s, v, r in con.execute(
        "select case_id, field_name, recompute_status, recomputed_value, recomputed_value_reason "
        "from fct_decisions__pnl_recomputed").fetchall()}


def test_eu_and_french_formats_are_read_exactly_in_the_warehouse(built):
    _, con = built
    got = _recomputed(con)
    for cid in ("E01", "F01"):
        for field, value in EXPECTED[cid].items():
            assert got[(cid, field)] == ("ok", value, None), (cid, field)
    prices = con.execute("select source_row, unit_price_text, unit_price from stg_decisions__pos_rows "
                         "where case_id = 'E01' order by sale_date").fetchall()
    assert prices == [(1, "1.401,40", D("1401.40")), (2, "22,30", D("22.30"))]
    assert str(con.execute("select typeof(recomputed_value) from fct_decisions__pnl_recomputed limit 1").fetchone()[0]) \
        == "DECIMAL(38,12)"


def test_a_period_without_pos_rows_is_not_ok(built):
    _, con = built
    got = _recomputed(con)
    for field in ("revenue_delta", "gross_margin_delta", "contribution_delta"):
        assert got[("G01", field)] == ("no_pos_rows_in_period", None,
                                       "no POS rows in the base period (2024-09-02 to 2024-09-29)")
    assert got[("G01", "revenue_vs_budget")] == ("ok", D("10"), None)
    assert not [k for k, (s, v, _) in got.items() if s == "ok" and v is None]


def test_a_bad_file_flags_only_its_case_with_file_row_and_column(built):
    root, con = built
    got = _recomputed(con)
    assert {s for (c, _), (s, _, _) in got.items() if c in ("H01", "K01")} == {"invalid_raw_rows"}
    h01 = got[("H01", "revenue_delta")][2]
    assert h01.startswith(f"invalid raw data: {root}/pack/cases/H01/pos.csv: header: header: unreadable_file (")
    assert got[("K01", "revenue_delta")][2] == (
        f"invalid raw data: {root}/pack/cases/K01/pos.csv: row 2: extra_fields: too_many_fields (surplus)")
    problems = con.execute("select case_id, source_row, row_problem, problem_column from int_decisions__pos_problems "
                           "order by case_id").fetchall()
    assert problems == [("H01", 0, "unreadable_file", "header"), ("K01", 2, "too_many_fields", "extra_fields"),
                        ("L01", 0, "unreadable_file", "header")]
    assert got[("L01", "revenue_delta")][2] == (f"invalid raw data: {root}/pack/cases/L01/budget.csv: header: header: "
                                                f"unreadable_file ({root}/pack/cases.csv:7:csv_delimiter: 'x' is not "
                                                "one of ,, ;, tab, |)")
    assert {c for (c, _), (s, _, _) in got.items() if s == "ok"} == {"E01", "F01", "G01"}


def test_the_warehouse_lists_the_case_files_as_the_python_listing_does(built):
    # base_decisions__case_files reads the declared locales from base_decisions__cases (the rows of cases.csv as the
    # warehouse read them), the Python listing from the file: both give the same rows, problems included
    root, con = built
    got = con.execute("select * from stg_decisions__case_files order by source_file").fetchall()
    want = case_files(root, source_root=str(root)).sort_values("source_file")
    assert got == [tuple(None if v is pd.NA else v for v in row) for row in want.itertuples(index=False)]
    assert sum(1 for row in got if row[-1] is not None) == 4
