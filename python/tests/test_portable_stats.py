"""The portable-SQL statistics (macros/portable_stats.sql) on DuckDB: Kendall tau-b against scipy, the percentile
bootstrap against a Python re-implementation of its integer PRNG with numpy's linear quantile (exact) and against
evalhouse.stats.bootstrap.bootstrap_mean_ci (Monte-Carlo tolerance), and the Spark form of the leaderboard
intervals (models/marts/spark/fct_model_run_score_intervals.sql) against the DuckDB build's Python mart."""
from __future__ import annotations

import math
import random

import duckdb
import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from evalhouse.app.leaderboard import RUN_KEYS, run_score_intervals, score_grid_bounds
from evalhouse.stats.agreement import kendall_tau_b
from evalhouse.stats.bootstrap import bootstrap_mean_ci

M = 2147483647  # 2^31 - 1


def picks(n_boot: int, n: int) -> np.ndarray:
    """The macro's PRNG: row positions drawn by resample b (rows) and draw i (columns), in int64 as SQL's BIGINT."""
    b = np.arange(n_boot, dtype=np.int64)[:, None]
    i = np.arange(n, dtype=np.int64)[None, :]
    x = (b * 1000003 + i * 7919 + 12345) % M
    h = ((x * x) % M * 48271) % M
    return ((h * h) % M) % n


def ref_bootstrap(num, den, n_boot: int = 2000, level: float = 0.95) -> tuple[float | None, float | None]:
    """percentile_bootstrap re-implemented: each resample's sum(num) / sum(den) (exact integer sums, one division),
    then numpy.quantile (linear) at (1 - level) / 2 and (1 + level) / 2. Rows in the macro's order_by order."""
    num, den = np.asarray(num, dtype=np.int64), np.asarray(den, dtype=np.int64)
    if len(num) < 2:
        return None, None
    p = picks(n_boot, len(num))
    stats = num[p].sum(axis=1).astype(float) / den[p].sum(axis=1).astype(float)
    lo, hi = np.quantile(stats, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def fixture_db() -> duckdb.DuckDBPyConnection:
    """An in-memory database attached as `evalhouse`, where the compiled SQL looks for its inputs."""
    con = duckdb.connect()
    con.execute("attach ':memory:' as evalhouse")
    return con


def test_prng_picks_are_uniform_and_stay_in_bigint():
    # every intermediate product below 2^62 (x, h < 2^31): no BIGINT overflow on either engine
    assert (M - 1) ** 2 < 2 ** 62
    # chi-square of the pick counts over 2000 resamples: near its degrees of freedom (n - 1), no position favoured
    for n in (2, 3, 7, 50, 100):
        counts = np.bincount(picks(2000, n).ravel(), minlength=n)
        chi2 = float(((counts - 2000) ** 2 / 2000).sum())
        assert chi2 < (n - 1) + 4 * math.sqrt(2 * (n - 1)), (n, chi2)
    # resamples differ from one another (no period within 2000) and draws within a resample are not constant
    p = picks(2000, 100)
    assert len({tuple(r) for r in p}) == 2000
    assert min(len(set(r)) for r in p) > 50


def test_kendall_tau_b_equals_scipy_with_ties_and_undefined_cases(portable_sql):
    rng = random.Random(7)
    rows = []
    cases = {}
    for g in range(6):  # ties on both sides (values 0-4), n from 2 to 40
        n = [2, 3, 10, 25, 40, 40][g]
        xs = [rng.randint(0, 4) for _ in range(n)]
        ys = [rng.randint(0, 4) if g != 5 else -x for x in xs]  # g5: perfectly discordant with ties
        cases[f"g{g}"] = (xs, ys)
    cases["floats"] = ([0.5, 1.5, 1.5, 2.25, 3.0], [10.0, 9.0, 11.0, 11.0, 12.5])
    cases["const_x"] = ([1, 1, 1], [1, 2, 3])
    cases["const_y"] = ([1, 2, 3], [4, 4, 4])
    cases["one_pair"] = ([1], [2])
    cases["with_nulls"] = ([1, None, 2, 3, None], [1, 5, 3, 2, None])  # 3 complete pairs
    cases["all_null"] = ([None, 1], [2, None])  # no complete pair
    for g, (xs, ys) in cases.items():
        rows += [(g, x, y) for x, y in zip(xs, ys)]
    con = fixture_db()
    con.execute("create table kendall_pairs (g varchar, x double, y double)")
    con.executemany("insert into kendall_pairs values (?, ?, ?)", rows)
    got = {r[0]: r[1:] for r in con.execute(portable_sql["portable_stats_kendall_tau_b"]).fetchall()}
    assert set(got) == set(cases)
    for g, (xs, ys) in cases.items():
        n_pairs, tau, reason = got[g]
        ref = kendall_tau_b(xs, ys)
        assert (n_pairs, reason) == (ref.n, ref.reason), g
        if ref.value is None:
            assert tau is None, g
        else:
            pairs = [(x, y) for x, y in zip(xs, ys) if x is not None and y is not None]
            scipy_tau = sps.kendalltau([p[0] for p in pairs], [p[1] for p in pairs], variant="b").statistic
            assert tau == scipy_tau, (g, tau, scipy_tau)  # the same double: same integers, same operation order
    assert got["g5"][1] == pytest.approx(-1.0, abs=1e-15)  # perfectly discordant (scipy: -0.9999999999999999 too)
    assert got["const_x"][2] == "x is constant (all tied): correlation undefined"
    assert got["one_pair"][2] == "fewer than two complete pairs"
    # no group columns: one row over the whole relation
    whole = con.execute(portable_sql["portable_stats_kendall_tau_b_ungrouped"]).fetchall()
    xs = [r[1] for r in rows if r[1] is not None and r[2] is not None]
    ys = [r[2] for r in rows if r[1] is not None and r[2] is not None]
    assert len(whole) == 1 and whole[0][0] == len(xs)
    assert whole[0][1] == pytest.approx(sps.kendalltau(xs, ys, variant="b").statistic, abs=1e-15)


def test_percentile_bootstrap_macro_equals_its_reimplementation(portable_sql):
    # the analysis: mean of v per g (den 1), 500 resamples, level 0.9, rows in k order
    rng = random.Random(11)
    groups = {
        "one": [4],                                       # n = 1: no interval
        "equal": [3] * 6,                                 # every resample the same: [3, 3]
        "two": [0, 10],
        "ints": [rng.randint(0, 20) for _ in range(40)],
        "skewed": [rng.choice([0, 0, 0, 1, 50]) for _ in range(73)],
    }
    con = fixture_db()
    con.execute("create table bootstrap_values (g varchar, k integer, v integer)")
    con.executemany("insert into bootstrap_values values (?, ?, ?)",
                    [(g, k, v) for g, vs in groups.items() for k, v in enumerate(vs)])
    got = {r[0]: r[1:] for r in con.execute(portable_sql["portable_stats_percentile_bootstrap"]).fetchall()}
    assert set(got) == set(groups)
    for g, vs in groups.items():
        n, low, high, reason = got[g]
        ref_low, ref_high = ref_bootstrap(vs, [1] * len(vs), n_boot=500, level=0.9)
        assert n == len(vs)
        assert (low, high) == (ref_low, ref_high), g  # the same doubles
        assert reason == ("fewer than 2 values: no interval" if len(vs) < 2 else None)
    assert got["equal"][1:3] == (3.0, 3.0)
    assert got["one"][1:] == (None, None, "fewer than 2 values: no interval")
    assert bootstrap_mean_ci([4]).reason == got["one"][3]  # the reference's wording


def _run_intervals(con, sql: str) -> dict[tuple, tuple]:
    rel = con.sql(sql)
    cols = rel.columns
    return {tuple(r[cols.index(k)] for k in RUN_KEYS): dict(zip(cols, r)) for r in rel.fetchall()}


def test_spark_intervals_on_the_bundled_data(portable_sql, warehouse):
    """The SQL form on the built warehouse: the Python mart's grain, types, score, counts, reasons and flags; bounds
    equal to the PRNG re-implementation on score_0_10's grid, and within Monte-Carlo error of the Python mart's."""
    sql_rows = _run_intervals(warehouse, portable_sql["fct_model_run_score_intervals"])
    py_rows = _run_intervals(warehouse, "select * from fct_model_run_score_intervals")
    assert set(sql_rows) == set(py_rows) and len(sql_rows) == 319
    sql_types = [str(t) for t in warehouse.sql(portable_sql["fct_model_run_score_intervals"]).types]
    assert sql_types == [str(t) for t in warehouse.sql("select * from fct_model_run_score_intervals").types]
    replies = warehouse.sql("select suite, rubric_id, rubric_version, rater_id, rater_kind, system_id, total, "
                            "max_total from fct_reply_scores where score_status = 'complete' "
                            "order by response_id").fetchall()
    by_run: dict[tuple, list] = {}
    for r in replies:
        by_run.setdefault(r[:6], []).append(r[6:])
    deltas = []
    for key, s in sql_rows.items():
        p = py_rows[key]
        for col in ("n_replies_scored", "score_0_10", "ci_level", "n_boot", "ci_method", "score_ci_reason",
                    "min_replies_for_interval", "is_below_min_replies"):
            assert s[col] == p[col], (key, col)
        vals = by_run.get(key, [])
        low, high = score_grid_bounds(*ref_bootstrap([t * 10 for t, _ in vals], [m for _, m in vals]))
        assert (None if s["score_ci_low"] is None else float(s["score_ci_low"]), None if s["score_ci_high"]
                is None else float(s["score_ci_high"])) == (low, high), key
        if len(vals) >= 20:
            scores = np.array([t / m * 10 for t, m in vals])
            se = scores.std() / math.sqrt(len(scores))
            if se > 0:
                raw = ref_bootstrap([t * 10 for t, _ in vals], [m for _, m in vals])
                ref = bootstrap_mean_ci(scores, level=0.95, n_boot=2000, seed=0)
                deltas += [(raw[0] - ref.low) / se, (raw[1] - ref.high) / se]
    # Monte-Carlo error of a 2.5% / 97.5% quantile of 2000 resamples is about 0.06 standard errors of the mean for each
    # PRNG; two numpy seeds differ by up to ~0.46 se on these runs (sd ~0.1): the integer PRNG is no further off
    d = np.array(deltas)
    assert len(d) > 200
    assert np.abs(d).max() < 0.6 and d.std() < 0.15 and abs(d.mean()) < 0.05


def test_spark_intervals_edge_cases_match_the_python_mart(portable_sql):
    rows = []

    def run(system, totals, statuses=None, max_total=8):
        for i, t in enumerate(totals):
            status = (statuses or ["complete"] * len(totals))[i]
            rows.append(("s", "r", 1, "rater", "human", system, f"{system}-{i:03d}", status,
                         t if status == "complete" else None, max_total))

    run("none_complete", [3, 4], ["incomplete", "invalid_score"])  # n = 0: no score, 'no values'
    run("one", [6])                                                 # n = 1: score, no interval
    run("equal", [5] * 7)                                           # all equal: [6.25, 6.25]
    run("two", [0, 8])
    run("few", [1, 7, 7, 2])                                        # below min_replies_for_interval (5)
    run("many", [random.Random(3).randint(0, 8) for _ in range(60)] + [4], ["complete"] * 60 + ["incomplete"])
    run("thirty_two", [1] + [0] * 31, max_total=1)                  # 10/32 -> 0.3125: ties at 4 decimals
    con = fixture_db()
    con.execute("create table evalhouse.main.fct_reply_scores (suite varchar, rubric_id varchar, "
                "rubric_version integer, rater_id varchar, rater_kind varchar, system_id varchar, response_id varchar, "
                "score_status varchar, total integer, max_total integer)")
    con.executemany("insert into evalhouse.main.fct_reply_scores values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    got = _run_intervals(con, portable_sql["fct_model_run_score_intervals"])
    frame = pd.DataFrame(rows, columns=RUN_KEYS + ["response_id", "score_status", "total", "max_total"])
    ref = run_score_intervals(frame)
    assert len(got) == len(ref) == 7
    for r in ref.to_dict("records"):
        s = got[tuple(r[k] for k in RUN_KEYS)]
        assert s["n_replies_scored"] == r["n_replies_scored"]
        assert (None if s["score_0_10"] is None else float(s["score_0_10"])) == (
            None if pd.isna(r["score_0_10"]) else r["score_0_10"])
        assert s["score_ci_reason"] == (r["score_ci_reason"] if isinstance(r["score_ci_reason"], str) else None)
        assert s["is_below_min_replies"] == r["is_below_min_replies"]
        vals = [(t, m) for (_s, _r, _v, _ra, _k, sys, rid, st, t, m) in sorted(rows, key=lambda x: x[6])
                if sys == r["system_id"] and st == "complete"]
        low, high = score_grid_bounds(*ref_bootstrap([t * 10 for t, _ in vals], [m for _, m in vals]))
        assert (None if s["score_ci_low"] is None else float(s["score_ci_low"]),
                None if s["score_ci_high"] is None else float(s["score_ci_high"])) == (low, high), r["system_id"]
        if r["n_replies_scored"] >= 2 and len({t for t, _ in vals}) == 1:
            assert (s["score_ci_low"], s["score_ci_high"]) == (s["score_0_10"], s["score_0_10"])  # degenerate
    assert got[("s", "r", 1, "rater", "human", "none_complete")]["score_0_10"] is None
    assert got[("s", "r", 1, "rater", "human", "none_complete")]["score_ci_reason"] == "no values"
    one = got[("s", "r", 1, "rater", "human", "one")]
    assert (float(one["score_0_10"]), one["score_ci_low"], one["score_ci_reason"]) == (
        7.5, None, "fewer than 2 values: no interval")
    assert float(got[("s", "r", 1, "rater", "human", "equal")]["score_ci_low"]) == 6.25
