"""fct_grade__consistency (portable SQL, DuckDB and Spark) against its reference, evalhouse.grade.consistency: the
built mart on the bundled data, and the model's compiled SQL on edge cases. Floats to 1e-12, everything else equal
(consistency, a DECIMAL(18,12), exactly)."""
from __future__ import annotations

import math

import duckdb
import pytest

from evalhouse.grade.consistency import consistency_table

COLUMNS = ["pack_id", "task_id", "item_id", "system_id", "n_repetitions", "finding_stability", "n_unique_findings",
           "finding_stability_reason", "ranking_stability", "n_repetition_pairs_ranked", "ranking_stability_reason",
           "metric_variance", "n_metric_keys", "metric_variance_reason", "consistency", "sub_metrics_used",
           "consistency_reason"]
FLOATS = {"finding_stability", "ranking_stability", "metric_variance"}


def assert_same_rows(got: list[dict], ref: list[dict]) -> None:
    by_key = {(r["item_id"], r["system_id"]): r for r in got}
    assert sorted(by_key) == sorted((r["item_id"], r["system_id"]) for r in ref)
    for r in ref:
        g = by_key[(r["item_id"], r["system_id"])]
        for col in COLUMNS:
            a, b = g[col], r[col]
            if col in FLOATS and a is not None and b is not None:
                assert math.isclose(a, b, rel_tol=0, abs_tol=1e-12), (r["item_id"], r["system_id"], col, a, b)
            else:
                assert a == b, (r["item_id"], r["system_id"], col, a, b)


def consistency_sql(con, portable_sql) -> list[dict]:
    """The mart's compiled SQL on the inputs in `con` (attached as evalhouse): its two intermediate models first."""
    for name in ("int_grade__consistency_findings", "int_grade__consistency_clusters"):
        con.execute(f"create or replace table evalhouse.main.{name} as {portable_sql[name]}")
    return rows_of(con, portable_sql["fct_grade__consistency"])


def rows_of(con, sql: str) -> list[dict]:
    rel = con.sql(sql)
    return [dict(zip(rel.columns, r)) for r in rel.fetchall()]


def test_built_mart_equals_the_python_reference(warehouse):
    got = rows_of(warehouse, "select * from fct_grade__consistency")
    assert len(got) == 30
    assert_same_rows(got, consistency_table(warehouse))
    types = dict(warehouse.execute("select column_name, data_type from information_schema.columns "
                                   "where table_name = 'fct_grade__consistency'").fetchall())
    assert [types[c] for c in COLUMNS] == ["VARCHAR"] * 4 + ["BIGINT", "DOUBLE", "BIGINT", "VARCHAR", "DOUBLE",
                                           "BIGINT", "VARCHAR", "DOUBLE", "BIGINT", "VARCHAR", "DECIMAL(18,12)",
                                           "VARCHAR", "VARCHAR"]


SAME3 = ["October cancellations spiked", "T-007 is an outlier", "November recovered"]
# (item, system): (runs: each run's key findings by position (None = a NULL text), metrics: per run {key: value})
CASES: dict[tuple[str, str], tuple[list[list], list[dict]]] = {
    ("i1", "identical"): ([SAME3] * 5, [{"rate": 11.98, "n": 192.0}] * 5),
    ("i1", "reversed"): ([["a b", "c d", "e f"], ["e f", "c d", "a b"]], [{}, {}]),
    ("i1", "one_swap"): ([["a b", "c d", "e f"], ["c d", "a b", "e f"]], [{}, {}]),
    ("i1", "nothing_shared"): ([["a b"], ["x y"]], [{}, {}]),
    ("i1", "empty_run"): ([["alpha beta", "gamma delta"], [], ["alpha beta", "gamma delta"]], [{}, {}, {}]),
    ("i1", "single_run"): ([SAME3], [{"k": 2.0}]),
    ("i1", "no_findings"): ([[], []], [{}, {}]),
    # blank texts are skipped (str.strip whitespace, NBSP and ideographic space included); a NULL text too;
    # punctuation-only texts have no word token, so each is a unique finding of its own (never matched)
    ("i1", "blank_and_tokenless"): ([["  ", "\u00a0\t\u3000", "alpha beta"], [None, "...", "alpha beta"],
                                     ["...", "alpha beta", "…"]], [{}, {}, {}]),
    # case folding (ß -> ss, final sigma), underscores and punctuation split words, Unicode digits and letters
    ("i1", "casefold"): ([["GROSSE Allee!", "ΟΔΟΣ δρόμος", "foo_bar baz"], ["große allee", "οδοσ ΔΡΌΜΟΣ",
                                                                          "FOO bar-baz"]], [{}, {}]),
    # only the first 3 findings count (position 4 is not read)
    ("i1", "top3"): ([["a", "b", "c", "d"], ["a", "b", "c", "e"], ["d", "b", "a"]], [{}, {}, {}]),
    # greedy order: run 2's finding starts a new unique finding (J 2/6 with run 1's), run 3's matches both
    # (J 4/6) and joins the first one
    ("i1", "greedy_order"): ([["a b c d"], ["c d e f"], ["a b c d e f", "c d e f"]], [{}, {}, {}]),
    # two findings of one run join the same unique finding: its first position counts
    ("i1", "same_run_twice"): ([["alpha beta", "gamma delta", "omega"], ["alpha beta", "alpha beta gamma", "omega"]],
                               [{}, {}]),
    ("i1", "jaccard_edge"): ([["one two three four"], ["one two five six"], ["one two"]], [{}, {}, {}]),
    # metric keys: mean 0 left out (named in the reason, sorted), one run only (not counted), NULL values ignored
    ("i2", "metrics_mixed"): ([["a b", "c d"], ["a b", "c d"], ["c d", "a b"]],
                              [{"z": 1.0, "a": 1.0, "m": 5.0, "once": 3.0, "nulls": None},
                               {"z": -1.0, "a": 3.0, "m": 0.0, "nulls": 2.0},
                               {"z": 0.0, "a": 2.0, "m": -5.0, "nulls": 4.0}]),
    ("i2", "metrics_all_zero"): ([["a b"], ["a b"]], [{"y": 0.0, "x": 1.0}, {"y": 0.0, "x": -1.0}]),
    ("i2", "metrics_one_run_each"): ([["a b"], ["a b"]], [{"x": 1.0}, {"y": 2.0}]),
    ("i2", "metrics_only"): ([[], [], []], [{"k": 10.0}, {"k": 12.0}, {"k": 14.0}]),
    ("i2", "constant_metric"): ([["a"], ["b"]], [{"k": 0.1}, {"k": 0.1}]),
    # ten runs of three findings drawn from five texts
    ("i3", "many_runs"): ([[["p q", "r s", "t u", "v w", "x y"][(r + j) % 5] for j in range(3)] for r in range(10)],
                          [{"k": float(r)} for r in range(10)]),
    # an item that is not a GRADE task: no row
    ("not_a_task", "m"): ([SAME3, SAME3], [{}, {}]),
}


def _load(con, cases) -> None:
    con.execute("create table evalhouse.main.int_grade__tasks (pack_id varchar, task_id varchar, item_id varchar)")
    con.execute("create table evalhouse.main.int_grade__responses (response_id varchar, item_id varchar, "
                "system_id varchar, repetition integer)")
    con.execute("create table evalhouse.main.int_grade__response_texts (response_id varchar, text_kind varchar, "
                "position integer, text_value varchar)")
    con.execute("create table evalhouse.main.int_grade__run_metric_values (item_id varchar, system_id varchar, "
                "repetition integer, metric_key varchar, metric_value double)")
    items = sorted({item for item, _ in cases if item != "not_a_task"})
    con.executemany("insert into evalhouse.main.int_grade__tasks values (?, ?, ?)",
                    [("pack", f"task-{item}", item) for item in items])
    for (item, system), (runs, metrics) in cases.items():
        for r, (findings, values) in enumerate(zip(runs, metrics), start=1):
            rid = f"{item}-{system}-r{r}"
            con.execute("insert into evalhouse.main.int_grade__responses values (?, ?, ?, ?)", [rid, item, system, r])
            for pos, text in enumerate(findings, start=1):
                con.execute("insert into evalhouse.main.int_grade__response_texts values (?, 'key_finding', ?, ?)",
                            [rid, pos, text])
            con.execute("insert into evalhouse.main.int_grade__response_texts values (?, 'raw_text', 0, 'raw')", [rid])
            con.execute("insert into evalhouse.main.int_grade__response_texts values (?, 'limitation', 1, 'a b')",
                        [rid])
            for key, v in values.items():
                con.execute("insert into evalhouse.main.int_grade__run_metric_values values (?, ?, ?, ?, ?)",
                            [item, system, r, key, v])


@pytest.fixture(scope="module")
def edge_con():
    con = duckdb.connect()
    con.execute("attach ':memory:' as evalhouse")
    _load(con, CASES)
    yield con
    con.close()


def test_sql_equals_the_python_reference_on_edge_cases(portable_sql, edge_con):
    got = consistency_sql(edge_con, portable_sql)
    ref = consistency_table(edge_con, "evalhouse.main")
    assert len(ref) == len(CASES) - 1
    assert_same_rows(got, ref)


def test_edge_cases_hand_values(portable_sql, edge_con):
    got = {r["system_id"]: r for r in consistency_sql(edge_con, portable_sql)}
    same = got["identical"]
    assert (same["finding_stability"], same["ranking_stability"], same["n_repetition_pairs_ranked"],
            same["metric_variance"], str(same["consistency"])) == (1.0, 1.0, 10, 1.0, "1.000000000000")
    assert got["reversed"]["ranking_stability"] == 0.0
    assert got["one_swap"]["ranking_stability"] == pytest.approx(2 / 3, abs=1e-15)  # tau-b 1/3
    assert got["nothing_shared"]["ranking_stability_reason"] == "no run pair shares 2 or more top-3 findings"
    assert got["single_run"]["ranking_stability_reason"] == "fewer than 2 runs"
    assert (got["no_findings"]["finding_stability_reason"], got["no_findings"]["consistency"],
            got["no_findings"]["sub_metrics_used"], got["no_findings"]["consistency_reason"]) == (
        "no key findings in any run", None, "", "no sub-metric defined")
    # blank: unique findings 'alpha beta' (3 of 3 runs), '...' x2 and '…' (1 of 3 each): mean(1, 1/3, 1/3, 1/3)
    assert got["blank_and_tokenless"]["n_unique_findings"] == 4
    assert got["blank_and_tokenless"]["finding_stability"] == pytest.approx(0.5, abs=1e-15)
    assert got["casefold"]["finding_stability"] == 1.0 and got["casefold"]["n_unique_findings"] == 3
    assert got["top3"]["n_unique_findings"] == 4  # a, b, c, e; d only at position 4 of run 1, then in run 3
    # greedy: uniques U1 = 'a b c d' (runs 1, 3), U2 = 'c d e f' (runs 2, 3): (2/3 + 2/3) / 2
    assert got["greedy_order"]["n_unique_findings"] == 2
    assert got["greedy_order"]["finding_stability"] == pytest.approx(2 / 3, abs=1e-15)
    # 'one two five six' vs 'one two three four': 2 of 6 -> new; 'one two' vs the first: 2 of 4 = 0.5 -> joins
    assert got["jaccard_edge"]["n_unique_findings"] == 2
    mixed = got["metrics_mixed"]
    # a: [1, 3, 2] -> CV sqrt(2/3) / 2; m: [5, 0, -5] and z: [1, -1, 0] have mean 0; nulls: [2, 4] -> CV 1/3
    assert mixed["n_metric_keys"] == 2
    assert mixed["metric_variance"] == pytest.approx((1 / (1 + math.sqrt(2 / 3) / 2) + 1 / (1 + 1 / 3)) / 2,
                                                     abs=1e-12)
    assert mixed["metric_variance_reason"] == "left out (mean 0, CV undefined): m, z"
    assert got["metrics_all_zero"]["metric_variance_reason"] == "CV undefined (mean 0) for every key: x, y"
    assert got["metrics_one_run_each"]["metric_variance_reason"] == \
        "no numeric structured_metrics key in 2 or more runs"
    only = got["metrics_only"]
    assert (only["sub_metrics_used"], str(only["consistency"])) == (
        "metric_variance", str(round(1 / (1 + math.sqrt(8 / 3) / 12), 12)))
    assert "not_a_task" not in {r["item_id"] for r in got.values()}


def test_more_findings_than_the_sql_clustering_holds_is_null_with_a_reason(portable_sql):
    # 84 runs x 3 distinct findings = 252 > 248 (4 x 62-bit masks): finding and ranking stability NULL with the
    # limit as the reason; metric variance is still computed
    runs = [[f"run{r} finding{j}" for j in range(3)] for r in range(84)]
    con = duckdb.connect()
    con.execute("attach ':memory:' as evalhouse")
    _load(con, {("big", "m"): (runs, [{"k": 1.0 + r % 2} for r in range(84)])})
    (row,) = consistency_sql(con, portable_sql)
    reason = "more than 248 top-3 key findings over the runs (the SQL clustering's limit)"
    assert (row["finding_stability"], row["finding_stability_reason"]) == (None, reason)
    assert (row["ranking_stability"], row["ranking_stability_reason"]) == (None, reason)
    assert row["metric_variance"] == pytest.approx(1 / (1 + (0.5 / 1.5)), abs=1e-12)
    assert row["sub_metrics_used"] == "metric_variance"
    (ref,) = consistency_table(con, "evalhouse.main")  # the reference has no such limit
    assert ref["finding_stability"] == pytest.approx(1 / 84, abs=1e-12)
