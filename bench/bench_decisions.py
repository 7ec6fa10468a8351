"""Benchmark of the exact P&L recomputation: N cases x R raw POS rows per period (current and base), CSV.

Writes synthetic cases (pos.csv with text amounts such as "¥1,200", budget.csv, inventory.csv, cases.csv) under
bench/out/decisions/ with DuckDB, then runs the real dbt models of the P&L path
(`dbt build --select +fct_decisions__pnl_recomputed`) against them in a separate DuckDB file, and reports wall time
and the peak resident memory of the dbt process. Checks one case against an independent typed DuckDB sum.
Not part of `make test`.

    .venv/bin/python bench/bench_decisions.py                     # 100 cases x 1,000,000 rows per period
    .venv/bin/python bench/bench_decisions.py --cases 4 --rows 100000
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb

REPO = Path(__file__).resolve().parents[1]
POS_HEADER = "date,store_id,channel,sku,quantity,unit_price,unit_cost,promo_flag"


def write_cases(root: Path, n_cases: int, n_rows: int) -> float:
    t0 = time.perf_counter()
    cases = root / "pack" / "cases"
    cases.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect()
    con.execute("set preserve_insertion_order = false")
    index = ["case_id,case_role,currency,base_start,base_end,current_start,current_end,pos_file"]
    for i in range(1, n_cases + 1):
        cid = f"B{i:03d}"
        d = cases / cid
        d.mkdir(exist_ok=True)
        index.append(f"{cid},core,JPY,2024-09-02,2024-09-29,2024-09-30,2024-10-27,pos.csv")
        # 2 x n_rows rows: row k < n_rows is in the base period, the rest in the current period.
        # store 000..019 as text, 500 SKUs, price 98..2580 (every 7th written "¥1,234"), cost = 0.625 x price,
        # 3% returns (negative quantities).
        con.execute(f"""
            copy (
                with r as (select range as k, hash(range * 7919 + {i}) as h from range({2 * n_rows}))
                select
                    strftime(date '2024-09-02' + cast((k // {n_rows}) * 28 + (h % 28) as integer), '%Y-%m-%d') as date,
                    lpad(cast((h // 28) % 20 as varchar), 3, '0')                          as store_id,
                    case when (h // 560) % 3 = 0 then 'online' else 'offline' end          as channel,
                    'SKU-' || cast(1000 + (h // 1680) % 500 as varchar)                    as sku,
                    cast(case when (h // 840000) % 100 < 3 then -1 else 1 + (h // 8400) % 6 end as varchar) as quantity,
                    case when k % 7 = 0
                         then '¥' || format('{{:,}}', 98 + ((h // 50400) % 250) * 10)
                         else cast(98 + ((h // 50400) % 250) * 10 as varchar) end           as unit_price,
                    cast(cast(98 + ((h // 50400) % 250) * 10 as decimal(18, 3)) * 0.625 as varchar) as unit_cost,
                    case when (h // 12600000) % 7 = 0 then 'Y' else 'N' end                as promo_flag
                from r
            ) to '{d / "pos.csv"}' (header true, delimiter ',')
        """)
        (d / "budget.csv").write_text("metric,amount\nrevenue_budget,\"¥1,000,000,000\"\n"
                                      "gross_margin_budget,300000000\nonline_fulfilment_cost_per_unit,35.5\n")
        inv = ["store_id,sku,opening_units,received_units,counted_closing_units,unit_cost"]
        for s in range(20):
            for k in range(500):
                inv.append(f"{s:03d},SKU-{1000 + k},{500 + k},{100 + s},{400 + k},{(98 + (k % 250) * 10) * 0.625}")
        (d / "inventory.csv").write_text("\n".join(inv) + "\n")
    (root / "pack" / "cases.csv").write_text("\n".join(index) + "\n")
    return time.perf_counter() - t0


def run_dbt(root: Path, db: Path) -> tuple[float, float]:
    env = {**os.environ, "EVALHOUSE_DB": str(db), "DBT_PROFILES_DIR": str(REPO), "EVALHOUSE_PROJECT_DIR": str(REPO),
           "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    dbt = REPO / ".venv" / "bin" / "dbt"
    pos = REPO / "data/decisions/pack/cases/R01/pos.parquet"
    vars_ = f"{{decisions_dir: '{root}', decisions_uci_parquet: '{pos}'}}"
    t0 = time.perf_counter()
    proc = subprocess.run([str(dbt), "run", "--no-use-colors", "--select", "+fct_decisions__pnl_recomputed",
                           "--vars", vars_, "--target-path",
                           str(root.parent / "target")], cwd=REPO, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(proc.stdout[-4000:] + proc.stderr[-2000:])
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return elapsed, peak_mib


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=100)
    ap.add_argument("--rows", type=int, default=1_000_000, help="POS rows per period (each side)")
    ap.add_argument("--keep", action="store_true", help="keep the generated CSV files")
    args = ap.parse_args()
    out = REPO / "bench" / "out"
    root = out / "decisions"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    gen_s = write_cases(root, args.cases, args.rows)
    size = sum(p.stat().st_size for p in root.rglob("*.csv"))
    db = out / "bench.duckdb"
    dbt_s, peak = run_dbt(root, db)
    con = duckdb.connect(str(db), read_only=True)
    (n,) = con.execute("select count(*) from fct_decisions__pnl_recomputed where recompute_status = 'ok'").fetchone()
    (got,) = con.execute("select recomputed_value from fct_decisions__pnl_recomputed "
                         "where case_id = 'B001' and field_name = 'revenue_delta'").fetchone()
    (types,) = con.execute("select string_agg(distinct data_type, ',') from information_schema.columns "
                           "where table_name = 'int_decisions__period_totals' and column_name = 'revenue'").fetchone()
    con.close()
    check = duckdb.connect()
    (ref,) = check.execute(f"""
        select sum(case when d >= date '2024-09-30' then q * p else -q * p end)
        from (select cast(date as date) as d, cast(quantity as decimal(18, 0)) as q,
                     cast(replace(replace(unit_price, '¥', ''), ',', '') as decimal(18, 3)) as p
              from read_csv('{root}/pack/cases/B001/pos.csv', header = true, all_varchar = true))
    """).fetchone()
    print(f"cases: {args.cases}, rows per period per case: {args.rows:,}, "
          f"total POS rows: {2 * args.cases * args.rows:,}")
    print(f"CSV written: {size / 1e9:.2f} GB in {gen_s:.1f} s")
    print(f"dbt run (+fct_decisions__pnl_recomputed): {dbt_s:.1f} s wall, peak RSS of dbt {peak:.0f} MiB")
    print(f"throughput: {2 * args.cases * args.rows / dbt_s / 1e6:.2f} M rows/s; fields recomputed ok: {n}")
    print(f"B001 revenue_delta {got} vs independent typed sum {ref}: {'OK' if got == ref else 'MISMATCH'}; "
          f"revenue type {types}")
    if not args.keep:
        shutil.rmtree(root / "pack" / "cases", ignore_errors=True)


if __name__ == "__main__":
    main()
