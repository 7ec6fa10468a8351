"""The portable SQL form of base_decisions__case_files (models/staging/decisions/base/spark/, built on DuckDB with var
portable_forms_on_duckdb) against the Python model and evalhouse.decisions.case_files, on a hand-written pack of bad
and unusual case files, and the CSV reading that follows it (decisions_read_csv_file, decisions_file_row_number).

The P&L path (`+fct_decisions__pnl_recomputed`) is built once into a temporary DuckDB file with the SQL listing
(one build, ~35 s: make test's budget), whose rows must equal case_files() row for row, problem texts included --
what the Python model returns (test_decisions_locale checks the Python model equal to case_files(); the models
after the listing are the same SQL with either form). Cases (hand-checked values in the comments):
- E01: declared ';', decimal ',', thousands '.' ("1.401,40" = 1401.40);
- Q01: default locale, quoted fields ("SKU ""A"", big" with a comma and doubled quotes, "1,200", "1,250.50") and
  blank lines, which are not rows: source_row 1 and 2;
- T01: declared 'tab'; T02: tab-separated, undeclared (detected);
- W01: a BOM, CRLF line ends and a quoted, padded header ('"date" ,store_id ,"channel",...') -> ',' detected;
- K01: a row with one field too many;
- N01: the header is not UTF-8 (Latin-1 'é');
- D01: declares ';' but the file is comma-separated; U01: a header no delimiter splits (mixed ',' and ';', a quote);
- L01: an unknown declared delimiter; B01: an unknown decimal separator; S01: decimal and thousands both ',';
- X01: a case folder that cases.csv does not list (default locale, delimiter detected).
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

from evalhouse.decisions.case_files import case_files

ROOT = Path(__file__).resolve().parents[2]
DBT = Path(sys.executable).parent / "dbt"
POS = ["date", "store_id", "channel", "sku", "quantity", "unit_price", "unit_cost", "promo_flag"]
INV = ["store_id", "sku", "opening_units", "received_units", "counted_closing_units", "unit_cost"]


def _write(path: Path, lines: list[str], end: str = "\n", encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes((end.join(lines) + end).encode(encoding))


def make_pack(root: Path) -> Path:
    cases = root / "pack" / "cases"
    declared = [("E01", ';,",",.'), ("Q01", ",,"), ("T01", "tab,,"), ("T02", ",,"), ("W01", ",,"), ("K01", ",,"),
                ("N01", ",,"), ("D01", ";,,"), ("U01", ",,"), ("L01", "x,,"), ("B01", ",x,"), ("S01", ',",",",",')]
    _write(root / "pack" / "cases.csv", [
        "case_id,case_role,currency,base_start,base_end,current_start,current_end,pos_file,csv_delimiter,"
        "decimal_separator,thousands_separator",
        *(f"{c},core,EUR,2024-09-02,2024-09-29,2024-09-30,2024-10-27,pos.csv,{loc}" for c, loc in declared)])
    budget = ["metric,amount", "revenue_budget,1000", "gross_margin_budget,500", "online_fulfilment_cost_per_unit,2"]
    inventory = [",".join(INV), "012,SKU-1,5,0,3,700"]
    plain_pos = [",".join(POS), "2024-09-03,012,offline,SKU-1,1,100,60,N", "2024-10-01,012,offline,SKU-1,1,100,60,N"]
    for cid in ("Q01", "W01", "K01", "N01", "D01", "U01", "L01", "B01", "S01", "X01"):
        _write(cases / cid / "budget.csv", budget)
        _write(cases / cid / "inventory.csv", inventory)
    # E01: base 2 x 1401.40 = 2802.80 (cost 1800.20); current 3 x 22.30 = 66.90 (cost 30.15)
    _write(cases / "E01" / "pos.csv", [";".join(POS), "2024-09-03;012;offline;SKU-1;2;1.401,40;900,10;N",
                                       "2024-10-01;012;online;SKU-1;3;22,30;10,05;Y"])
    _write(cases / "E01" / "budget.csv", ["metric;amount", "revenue_budget;1.000,00", "gross_margin_budget;30,00",
                                          "online_fulfilment_cost_per_unit;1,50"])
    _write(cases / "E01" / "inventory.csv", [";".join(INV), "012;SKU-1;10;0;6;900,10"])
    # Q01: base 2 x 1200 = 2400 (cost 1400); current online 1 x 1250.50 (cost 700); blank lines are not rows
    _write(cases / "Q01" / "pos.csv", [",".join(POS), '2024-09-03,012,offline,"SKU ""A"", big",2,"1,200",700,N', "",
                                       '2024-10-01,012,online,SKU-1,1,"1,250.50",700,N', ""])
    for cid in ("T01", "T02"):
        _write(cases / cid / "pos.csv", ["\t".join(POS), "2024-09-03\t012\toffline\tSKU-1\t1\t100\t60\tN",
                                         "2024-10-01\t012\toffline\tSKU-1\t2\t100\t60\tN"])
        _write(cases / cid / "budget.csv", ["metric\tamount", "revenue_budget\t150", "gross_margin_budget\t50",
                                            "online_fulfilment_cost_per_unit\t0"])
        _write(cases / cid / "inventory.csv", ["\t".join(INV), "012\tSKU-1\t5\t0\t3\t60"])
    _write(cases / "W01" / "pos.csv", ['\ufeff"date" ,store_id ,"channel",sku,quantity,unit_price,unit_cost,promo_flag',
                                       *plain_pos[1:]], end="\r\n")
    _write(cases / "K01" / "pos.csv", [*plain_pos, "2024-10-02,012,offline,SKU-1,1,100,60,N,surplus"])
    _write(cases / "N01" / "pos.csv", [",".join(POS) + ",caf\u00e9", *plain_pos[1:]], encoding="latin-1")
    _write(cases / "D01" / "pos.csv", plain_pos)
    _write(cases / "U01" / "pos.csv", ["date;store_id,channel,sku,quantity,unit_price,unit_cost,promo_flag's",
                                       *plain_pos[1:]])
    for cid in ("L01", "B01", "S01", "X01"):
        _write(cases / cid / "pos.csv", plain_pos)
    return root


def _build(tmp: Path, root: Path, name: str, portable: bool) -> duckdb.DuckDBPyConnection:
    db = tmp / f"{name}.duckdb"
    env = dict(os.environ, EVALHOUSE_DB=str(db), DBT_PROFILES_DIR=str(ROOT), EVALHOUSE_PROJECT_DIR=str(ROOT),
               DBT_SEND_ANONYMOUS_USAGE_STATS="false")
    uci = ROOT / "data" / "decisions" / "pack" / "cases" / "R01" / "pos.parquet"
    run = subprocess.run(
        [str(DBT), "run", "--no-use-colors", "--select", "+fct_decisions__pnl_recomputed",
         "--target-path", str(tmp / f"target-{name}"), "--log-path", str(tmp / "logs"),
         "--vars", f"{{decisions_dir: '{root}', decisions_uci_parquet: '{uci}', portable_forms_on_duckdb: {portable}}}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    return duckdb.connect(str(db), read_only=True)


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("case_files_sql")
    root = make_pack(tmp / "decisions")
    sql = _build(tmp, root, "sql", True)
    yield root, sql
    sql.close()


def test_the_sql_listing_equals_the_python_listing(builds):
    root, sql = builds
    want = case_files(root, source_root=str(root)).sort_values("source_file")
    want = [tuple(None if v is pd.NA else v for v in row) for row in want.itertuples(index=False)]
    got = sql.execute("select * from base_decisions__case_files order by source_file").fetchall()
    assert got == want
    assert len(got) == 13 * 3


def test_the_listing_by_hand(builds):
    root, sql = builds
    got = {(c, k): (d, dec, th, src, p) for c, k, _, d, dec, th, src, p in sql.execute(
        "select * from base_decisions__case_files").fetchall()}
    cases = f"{root}/pack/cases"
    assert got[("E01", "pos")] == (";", ",", ".", "declared", None)
    assert got[("T01", "budget")] == ("tab", ".", ",", "declared", None)
    assert got[("T02", "inventory")] == ("tab", ".", ",", "default", None)
    assert got[("W01", "pos")] == (",", ".", ",", "default", None)
    assert got[("X01", "pos")] == (",", ".", ",", "default", None)
    assert got[("N01", "pos")] == (None, ".", ",", "default", f"{cases}/N01/pos.csv: row 1 (header): not UTF-8")
    assert got[("D01", "pos")][4] == (
        f"{cases}/D01/pos.csv: row 1 (header): columns '{','.join(POS)}' do not split into {POS} with the declared "
        "delimiter ';'")
    assert got[("D01", "pos")][:4] == (None, ".", ",", "declared")
    assert got[("U01", "pos")][4] == (
        f"{cases}/U01/pos.csv: row 1 (header): columns \"date;store_id,channel,sku,quantity,unit_price,unit_cost,"
        f"promo_flag's\" differ from {POS} with every delimiter (,, ;, tab, |)")
    cases_csv = f"{root}/pack/cases.csv"
    assert {got[("L01", k)] for k in ("pos", "budget", "inventory")} == {
        (None, ".", ",", "default", f"{cases_csv}:11:csv_delimiter: 'x' is not one of ,, ;, tab, |")}
    assert got[("B01", "budget")][4] == f"{cases_csv}:12:decimal_separator: decimal_separator 'x' is not one of . ,"
    assert got[("S01", "inventory")][4] == (
        f"{cases_csv}:13:thousands_separator: decimal and thousands separators are both ','")
    assert sum(1 for v in got.values() if v[4] is not None) == 1 + 3 + 1 + 9  # N01 pos, D01 x 3 (';' declared, all comma-separated), U01 pos, L01 B01 S01 x 3


def test_quoted_fields_blank_lines_tabs_and_extra_fields_are_read_in_file_order(builds):
    _, sql = builds
    q01 = sql.execute("select source_row, sku, unit_price_text, unit_price from stg_decisions__pos_rows "
                      "where case_id = 'Q01' order by source_row").fetchall()
    assert q01 == [(1, 'SKU "A", big', "1,200", D("1200")), (2, "SKU-1", "1,250.50", D("1250.50"))]
    t01 = sql.execute("select source_row, quantity from stg_decisions__pos_rows where case_id = 'T01' "
                      "order by source_row").fetchall()
    assert t01 == [(1, D("1")), (2, D("2"))]
    assert sql.execute("select source_row, row_problem, extra_fields from stg_decisions__pos_rows "
                       "where case_id = 'K01' and row_problem is not null").fetchall() == [(3, "too_many_fields", "surplus")]
    assert sql.execute("select count(*) from stg_decisions__pos_rows where case_id = 'W01' and row_problem is null"
                       ).fetchone()[0] == 2


def test_recomputed_values_by_hand(builds):
    _, sql = builds
    got = {(c, f): (s, v) for c, f, s, v in sql.execute(
        "select case_id, field_name, recompute_status, recomputed_value from fct_decisions__pnl_recomputed").fetchall()}
    # Q01: revenue 1250.50 - 2400; margin (1250.50 - 700) - (2400 - 1400); contribution 550.50 - 2 x 1 online unit
    # - 1000; vs budget 1250.50 - 1000 and 550.50 - 500; exposure |5 + 0 - 1 - 3| x 700
    assert {f: v for (c, f), (s, v) in got.items() if c == "Q01" and s == "ok"} == {
        "revenue_delta": D("-1149.50"), "gross_margin_delta": D("-449.50"), "contribution_delta": D("-451.50"),
        "revenue_vs_budget": D("250.50"), "gross_margin_vs_budget": D("50.50"),
        "unexplained_inventory_exposure": D("700")}
    # E01 as in test_decisions_locale; T01: revenue 200 - 100, vs budget 200 - 150, exposure |5 - 2 - 3| x 60 = 0
    assert got[("E01", "contribution_delta")] == ("ok", D("-970.35"))
    assert got[("T01", "revenue_delta")] == ("ok", D("100"))
    assert got[("T01", "revenue_vs_budget")] == ("ok", D("50"))
    assert got[("T01", "unexplained_inventory_exposure")] == ("ok", D("0"))
    invalid = {c for (c, _), (s, _) in got.items() if s == "invalid_raw_rows"}
    assert invalid == {"K01", "N01", "D01", "U01", "L01", "B01", "S01"}
