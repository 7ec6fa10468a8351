"""The real POS case R01: UCI "Online Retail" (13 ISO weeks 2011-09-05 .. 2011-12-04, GBP).

``build_parquet(src_csv, out)`` makes the compact copy shipped in ``data/decisions/pack/cases/R01/pos.parquet``
(maintainer step, run once from the shared CSV; never at build time). Every row is kept, in source order, with its
CSV line number; ``UnitPrice`` is parsed from its text straight into DECIMAL(10,3) (never via float).

Treatment of each quirk in the recomputation (also in data/decisions/pack/cases/R01/SOURCE.md and the model YAML):
- cancellations (``C`` invoices, negative quantity): kept and netted in the period of the cancellation date, like
  every other return (the spec's "returns as negative quantities");
- non-merchandise lines (StockCode not 5 digits + optional letters: POST, DOT, C2, M, D, CRUK, BANK CHARGES, S,
  AMAZONFEE, PADS, DCGSS*, gift_0001_*): excluded from revenue ("all SKUs" means merchandise SKUs), reported
  separately with their value per period;
- zero prices: kept (they add 0 to revenue), counted;
- negative quantities on non-``C`` invoices (stock write-offs, all at price 0): kept, value 0, counted;
- exact duplicate lines: kept (nothing says they are not real repeats), counted, their value reported as a
  sensitivity figure;
- timestamps: naive UK wall-clock time; the period is the calendar date;
- currency GBP: the 0.01 tolerance is read as GBP 0.01; 3-decimal prices (0.001) stay exact in DECIMAL;
- no cost, no store, no budget, no inventory: gross margin, contribution, budget variances and inventory exposure
  are not verifiable, so any number claimed for them is an ``unsupported_financial_claim``.
"""
from __future__ import annotations

from datetime import date
from decimal import Decimal
from pathlib import Path

CASE_ID = "R01"
PERIODS = {"base": (date(2011, 10, 10), date(2011, 11, 6)), "current": (date(2011, 11, 7), date(2011, 12, 4))}
MERCHANDISE_PATTERN = "[0-9]{5}[A-Za-z]*"


def build_parquet(src_csv: Path, out: Path) -> int:
    import duckdb

    out.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute(f"""
        copy (
            select
                cast(line_no as integer)                           as source_line,
                InvoiceNo                                          as invoice_no,
                StockCode                                          as stock_code,
                nullif(Description, '')                            as description,
                cast(Quantity as integer)                          as quantity,
                strptime(InvoiceDate, '%Y-%m-%d %H:%M:%S')         as invoice_ts,
                cast(UnitPrice as decimal(10, 3))                  as unit_price,
                nullif(CustomerID, '')                             as customer_id,
                Country                                            as country
            from (
                select *, row_number() over () + 1 as line_no
                from read_csv('{src_csv}', header = true, all_varchar = true, auto_detect = false,
                              delim = ',', quote = '"', escape = '"',
                              columns = {{'InvoiceNo': 'VARCHAR', 'StockCode': 'VARCHAR', 'Description': 'VARCHAR',
                                         'Quantity': 'VARCHAR', 'InvoiceDate': 'VARCHAR', 'UnitPrice': 'VARCHAR',
                                         'CustomerID': 'VARCHAR', 'Country': 'VARCHAR'}})
            )
            order by source_line
        ) to '{out}' (format parquet, compression zstd, row_group_size 100000)
    """)
    return con.execute(f"select count(*) from read_parquet('{out}')").fetchone()[0]


def reference_revenue(parquet: Path) -> dict[str, Decimal]:
    """Merchandise revenue per period and the revenue delta, summed in Python Decimal (the test oracle)."""
    import re

    import pyarrow.parquet as pq

    table = pq.read_table(parquet, columns=["stock_code", "quantity", "invoice_ts", "unit_price"]).to_pydict()
    merch = re.compile(MERCHANDISE_PATTERN)
    totals = {p: Decimal(0) for p in PERIODS}
    for code, qty, ts, price in zip(table["stock_code"], table["quantity"], table["invoice_ts"], table["unit_price"]):
        if not merch.fullmatch(code):
            continue
        day = ts.date()
        for p, (lo, hi) in PERIODS.items():
            if lo <= day <= hi:
                totals[p] += Decimal(qty) * price
    return {"revenue_base": totals["base"], "revenue_current": totals["current"],
            "revenue_delta": totals["current"] - totals["base"]}
