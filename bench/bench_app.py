"""Benchmark: the leaderboard's first render on a warehouse of 1M replies.

Builds bench/out/bench_app.duckdb with the marts the leaderboard reads, at scale: 1,000,000 replies (8 model runs x
125,000 tickets by default) with 4 criterion scores each (4M rows in fct_criterion_scores), dim_responses with text,
and the run-level marts aggregated from them with the same definitions as the dbt models (fct_model_run_scores,
fct_model_run_criterion_scores). fct_model_run_score_intervals is computed by the real Python function the dbt model
calls (evalhouse.app.leaderboard.run_score_intervals: 2,000 bootstrap resamples per run), and its time is reported too.
Table shapes are copied from the published warehouse (run `make build` first), so the page reads real schemas.

Then it measures, on that file:
  1. the leaderboard page script's first run under streamlit AppTest in a fresh process (cold caches);
     The same on the small published warehouse is reported as a baseline (start-up cost that does not grow
     with the data);
  2. the first render in Debian's Chromium: from navigation to the leaderboard's table cells in the DOM, against a
     freshly started server (first session, empty caches), when /usr/bin/chromium and Playwright are present.

Usage: python bench/bench_app.py [--replies 1000000] [--runs 8]
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import duckdb

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out"
sys.path.insert(0, str(ROOT / "python"))

from evalhouse import paths  # noqa: E402
from evalhouse.app.leaderboard import run_score_intervals  # noqa: E402

CRITERIA = ["correctness", "completeness", "format_compliance", "appropriate_abstention"]


def build(db: Path, n_replies: int, n_runs: int) -> dict:
    template = paths.published_db()
    if not template.is_file():
        sys.exit(f"{template}: run `make build` first (the benchmark copies the marts' shapes from it)")
    if db.exists():
        db.unlink()
    per_run = n_replies // n_runs
    timings = {}
    t0 = time.perf_counter()
    con = duckdb.connect(str(db))
    con.execute(f"attach '{template}' as tpl (read_only)")
    for t in ("dim_responses", "dim_items", "dim_rubric_levels", "fct_reply_scores", "fct_criterion_scores",
              "fct_model_run_scores", "fct_model_run_criterion_scores"):
        con.execute(f"create table {t} as select * from tpl.{t} limit 0")
    con.execute("insert into dim_rubric_levels select * from tpl.dim_rubric_levels")
    con.execute("detach tpl")
    # Runs differ in quality so the leaderboard has leaders, ties and a tail: run r scores 2 with probability p_r.
    con.execute(f"""
        create temp table runs as
        select r as run_no, 'run-' || lpad(cast(r as varchar), 3, '0') as system_id,
               0.55 + 0.4 * (r % 5) / 4.0 as p2
        from range({n_runs}) as t(r)
    """)
    con.execute(f"""
        insert into dim_items by name
        select 'bench' as suite, 'T' || lpad(cast(i as varchar), 7, '0') as item_id, 'en' as language,
               'other' as category, 'ticket ' || i as input_text, 'key ' || i as reference_text
        from range({per_run}) as t(i)
    """)
    con.execute(f"""
        create temp table replies as
        select 'bench-' || runs.system_id || '-' || i as response_id,
               'T' || lpad(cast(i as varchar), 7, '0') as item_id, runs.system_id, runs.p2, i, runs.run_no
        from runs, range({per_run}) as t(i)
    """)
    con.execute("""
        insert into dim_responses by name
        select 'bench' as suite, response_id, item_id, system_id, 1 as repetition,
               'Reply ' || i || ' of ' || system_id || ': thank you for your message, here is what we can do.'
                   as response_text, false as is_reference_system
        from replies
    """)
    con.execute(f"""
        insert into fct_criterion_scores by name
        select 'bench' as suite, r.response_id, r.item_id, r.system_id, 'panel' as rater_id, 'human' as rater_kind,
               'bench_rubric' as rubric_id, 1 as rubric_version, c.criterion, c.criterion_order,
               0 as min_score, 2 as max_score,
               case when hash(r.response_id, c.criterion) % 1000 < r.p2 * 1000 then 2
                    when hash(r.response_id, c.criterion) % 1000 < 970 then 1 else 0 end as score,
               'scored' as score_status, 'bench' as reason,
               substr(md5(r.response_id || c.criterion), 1, 12) as rating_id, 1 as rated_under_version,
               false as carried_forward, false as is_stale
        from replies as r,
             (select unnest({CRITERIA}) as criterion, unnest(range(1, {len(CRITERIA) + 1})) as criterion_order) as c
    """)
    con.execute("""
        insert into fct_reply_scores by name
        select suite, response_id, item_id, system_id, 1 as repetition, rater_id, rater_kind, rubric_id,
               rubric_version, 'complete' as score_status, cast(sum(score) as integer) as total,
               cast(sum(max_score) as integer) as max_total,
               bool_and(score > min_score) and max(case when criterion = 'correctness' then score end) = 2 as ready,
               4 as n_criteria, 4 as n_criteria_scored, 0 as n_criteria_missing, 0 as n_invalid_scores,
               cast(sum(case when score = min_score then 1 else 0 end) as integer) as n_at_minimum,
               0 as n_carried_forward, 0 as n_stale_scores
        from fct_criterion_scores
        group by all
    """)
    con.execute("""
        insert into fct_model_run_scores by name
        select suite, rubric_id, rubric_version, rater_id, rater_kind, system_id,
               cast(count(*) as integer) as n_replies_rated, cast(count(*) as integer) as n_replies_scored,
               0 as n_incomplete, 0 as n_invalid_score,
               cast(sum(case when ready then 1 else 0 end) as integer) as n_ready,
               cast(sum(total) as integer) as sum_total, max(max_total) as max_total,
               cast(round(sum(total) * 10.0 / sum(max_total), 2) as decimal(18, 2)) as score_0_10,
               0 as n_stale_scores
        from fct_reply_scores group by all
    """)
    con.execute("""
        insert into fct_model_run_criterion_scores by name
        select suite, rubric_id, rubric_version, rater_id, rater_kind, system_id, criterion,
               min(criterion_order) as criterion_order, cast(count(*) as integer) as n_scored,
               cast(sum(case when score = min_score then 1 else 0 end) as integer) as n_at_minimum,
               cast(sum(case when score = max_score then 1 else 0 end) as integer) as n_at_maximum,
               cast(round(avg(score), 4) as decimal(18, 4)) as mean_score, 0 as n_stale
        from fct_criterion_scores group by all
    """)
    timings["synthesize_marts_s"] = round(time.perf_counter() - t0, 2)
    t1 = time.perf_counter()
    replies = con.execute("select * from fct_reply_scores").df()
    iv = run_score_intervals(replies)
    timings["score_intervals_python_s"] = round(time.perf_counter() - t1, 2)
    con.register("iv", iv)
    con.execute("create table fct_model_run_score_intervals as select * from iv")
    con.execute("checkpoint")
    con.close()
    counts = {}
    with duckdb.connect(str(db), read_only=True) as c:
        for t in ("dim_responses", "fct_reply_scores", "fct_criterion_scores", "fct_model_run_scores"):
            counts[t] = c.execute(f"select count(*) from {t}").fetchone()[0]
    timings["rows"] = counts
    timings["file_mb"] = round(db.stat().st_size / 1e6, 1)
    return timings


APPTEST = r"""
import json, sys, time
t0 = time.perf_counter()
from streamlit.testing.v1 import AppTest
t_import = time.perf_counter() - t0
at = AppTest.from_file(sys.argv[1], default_timeout=120)
t = time.perf_counter(); at.run(); first = time.perf_counter() - t
assert not at.exception and not at.error, [e.value for e in list(at.exception) + list(at.error)]
df = at.dataframe[0].value
t = time.perf_counter(); at.run(); second = time.perf_counter() - t
print(json.dumps({"apptest_first_run_s": round(first, 3), "apptest_cached_rerun_s": round(second, 3),
                  "streamlit_import_s": round(t_import, 2), "leaderboard_rows": len(df),
                  "top": df.iloc[0][["model run", "score 0-10", "rank band"]].astype(str).tolist()}))
"""


def data_path(db: Path) -> dict:
    """The leaderboard's own work, without Streamlit: its queries on a cold connection and the table assembly."""
    from evalhouse.app import data as appdata
    from evalhouse.app.leaderboard import leaderboard_table

    t = time.perf_counter()
    appdata.leaderboard_filters(db=db)
    d = appdata.leaderboard_data("bench", 1, db=db)
    leaderboard_table(d["runs"], d["criteria"], d.get("intervals"))
    appdata.interval_marts(db=db)
    return {"leaderboard_queries_and_table_s": round(time.perf_counter() - t, 3)}


def apptest_first_render(db: Path) -> dict:
    env = dict(os.environ, EVALHOUSE_PUBLISHED_DB=str(db), EVALHOUSE_PROJECT_DIR=str(ROOT))
    res = subprocess.run([sys.executable, "-c", APPTEST, str(ROOT / "app" / "views" / "leaderboard.py")],
                         env=env, capture_output=True, text=True, timeout=600)
    if res.returncode:
        raise SystemExit(res.stderr[-3000:])
    return json.loads(res.stdout.strip().splitlines()[-1])


def browser_first_render(db: Path, cell_text: str = "run-") -> dict:
    chromium = "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return {"browser": "skipped: playwright not installed"}
    if not Path(chromium).exists():
        return {"browser": "skipped: /usr/bin/chromium missing (make e2e-deps)"}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, EVALHOUSE_PUBLISHED_DB=str(db), EVALHOUSE_PROJECT_DIR=str(ROOT))
    proc = subprocess.Popen([str(Path(sys.executable).parent / "evalhouse"), "app", "--port", str(port)], env=env,
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        time.sleep(1.0)
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
        out = {}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=args)
            for label in ("browser_first_session", "browser_second_session"):
                page = browser.new_page(viewport={"width": 1400, "height": 1000})
                t = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/")
                page.locator("[data-testid='stSidebar']").first.wait_for(state="attached", timeout=120_000)
                shell = time.perf_counter() - t
                page.locator("[data-testid='stDataFrame'] td", has_text=cell_text).first.wait_for(
                    state="attached", timeout=120_000)
                out[label] = {"to_table_s": round(time.perf_counter() - t, 3), "to_app_shell_s": round(shell, 3)}
                page.close()
            browser.close()
        return out
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--replies", type=int, default=1_000_000)
    ap.add_argument("--runs", type=int, default=8)
    ap.add_argument("--keep", action="store_true", help="reuse bench/out/bench_app.duckdb when it exists")
    a = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    db = OUT / "bench_app" / "evalhouse.duckdb"
    db.parent.mkdir(parents=True, exist_ok=True)
    report = {"replies": a.replies, "runs": a.runs}
    if not (a.keep and db.exists()):
        report.update(build(db, a.replies, a.runs))
    report.update(data_path(db))
    report.update(apptest_first_render(db))
    small = apptest_first_render(paths.published_db())
    report["baseline_small_warehouse_apptest_first_run_s"] = small["apptest_first_run_s"]
    report.update(browser_first_render(db))
    report["baseline_small_warehouse_browser"] = browser_first_render(paths.published_db(), cell_text="Claude")
    report["target"] = "leaderboard first render < 2 s"
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
