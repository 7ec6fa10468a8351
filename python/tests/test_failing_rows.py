"""`evalhouse build`'s report of a failed build's test rows (evalhouse.cli.suites._show_failing_rows), on a run_results.json,
manifest.json and warehouse file written here: no dbt run."""
import json

import duckdb

from evalhouse.cli.suites import _show_failing_rows


def _write(tmp_path, n_rows: int, materialized: str = "table"):
    db = tmp_path / "w.duckdb"
    with duckdb.connect(str(db)) as con:
        con.execute(f"create table scores as select 'r' || i as response_id, i as n from range({n_rows}) t(i)")
    target = tmp_path / "target"
    target.mkdir()
    test_id = "test.evalhouse.assert_scores_empty.abc"
    (target / "run_results.json").write_text(json.dumps({"results": [
        {"unique_id": test_id, "status": "fail", "failures": n_rows,
         "compiled_code": "select response_id, n from scores order by n"},
        {"unique_id": "model.evalhouse.scores", "status": "success", "compiled_code": "select 1"},
    ]}))
    (target / "manifest.json").write_text(json.dumps({"nodes": {
        test_id: {"compiled_path": "target/compiled/evalhouse/tests/assert_scores_empty.sql",
                  "attached_node": "model.evalhouse.scores"},
        "model.evalhouse.scores": {"name": "scores", "config": {"materialized": materialized}},
    }}))
    return target / "run_results.json", db


def test_more_rows_than_shown_say_where_the_query_is(tmp_path, capsys):
    run_results, db = _write(tmp_path, 7)
    _show_failing_rows(run_results, db)
    err = capsys.readouterr().err
    assert err.startswith(
        "assert_scores_empty: the first 5 of 7 failing rows (every row: the query in "
        f"{tmp_path}/target/compiled/evalhouse/tests/assert_scores_empty.sql, run on {db} opened read-only):\n"
        "  response_id=r0; n=0\n"), err
    assert "  response_id=r4; n=4\n" in err and "r5" not in err
    assert "incremental" not in err


def test_rows_that_fit_are_all_shown_and_an_incremental_model_gets_the_full_refresh_hint(tmp_path, capsys):
    run_results, db = _write(tmp_path, 2, materialized="incremental")
    _show_failing_rows(run_results, db)
    assert capsys.readouterr().err == (
        "assert_scores_empty: its failing rows:\n  response_id=r0; n=0\n  response_id=r1; n=1\n"
        "  (if no input explains these rows, e.g. after a hand edit of the build file: scores is incremental and a "
        "build recomputes only the rows whose inputs changed, so they stay until `evalhouse build --full-refresh -s "
        "scores` recomputes it)\n")


def test_unreadable_results_say_nothing(tmp_path, capsys):
    _show_failing_rows(tmp_path / "target" / "run_results.json", tmp_path / "w.duckdb")
    assert capsys.readouterr().err == ""
