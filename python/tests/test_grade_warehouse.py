"""GRADE marts in the built warehouse (make test builds before pytest): real values, scorecard, schema."""
import json
from decimal import ROUND_HALF_UP, Decimal

import pytest

from evalhouse.app.leaderboard import outward_bounds
from evalhouse.grade.scorecard import DIMENSIONS, ResultsInvalid, build_results, validate_results, write_scorecard
from evalhouse.warehouse.published import connect_readonly


@pytest.fixture(scope="module")
def con():
    c = connect_readonly()
    yield c
    c.close()


def _one(con, sql, params=None):
    return con.execute(sql, params or []).fetchone()


def test_scorecard_results_validate_and_composite_is_the_weighted_sum(con, tmp_path):
    results, md = write_scorecard(con, tmp_path)
    doc = json.loads(results.read_text(encoding="utf-8"))
    validate_results(doc)  # raises on any violation
    w = doc["weights"]
    assert sum(w.values()) == pytest.approx(1.0)
    assert w == {"grounding_accuracy": 0.35, "insight_quality": 0.20, "evidence_linkage": 0.15,
                 "calibration_limitation_handling": 0.15, "consistency": 0.10, "structure_usability": 0.05}
    for m in doc["models"]:
        o = m["overall"]
        assert o["composite"] == pytest.approx(sum(w[d] * o["dimensions"][d] for d in DIMENSIONS), abs=1e-11)
        # overall dimension = mean of task scores
        for d in DIMENSIONS:
            assert o["dimensions"][d] == pytest.approx(sum(t["dimensions"][d] for t in m["tasks"]) / len(m["tasks"]),
                                                       abs=1e-11)
    assert [r["model"] for r in doc["leaderboard"]] == ["synthetic-strong", "synthetic-mixed", "synthetic-weak"]
    # the leaderboard's intervals and bands are the mart's (same function, seed and threshold)
    mart = {r[0]: r[1:] for r in con.execute("select system_id, composite_ci_low, composite_ci_high, tie_group, rank_band "
                                             "from fct_grade__composite_intervals").fetchall()}
    for r in doc["leaderboard"]:
        low, high, group, band = mart[r["model"]]
        # the mart keeps the same interval on the DECIMAL(18,12) grid, rounded outward
        assert outward_bounds(r["ci_low"], r["ci_high"], 12) == (low, high)
        assert (r["tie_group"], r["rank_band"]) == (group, band)
    assert [r["rank_band"] for r in doc["leaderboard"]] == ["1", "2", "3"]
    text = md.read_text(encoding="utf-8")
    assert "SYNTHETIC" in text and "| 1 | synthetic-strong | 0.978 | 0.973-0.982 | 1 |" in text


def test_overall_composite_equals_weighted_sum_exactly_in_decimal(con):
    weights = dict(con.execute("select dimension, weight from grade_dimension_weights").fetchall())
    rows = con.execute(f"select system_id, composite, {', '.join(DIMENSIONS)} from fct_grade__overall_scores").fetchall()
    assert len(rows) == 3
    for model, composite, *dims in rows:
        expected = sum(Decimal(weights[d]) * v for d, v in zip(DIMENSIONS, dims))
        assert composite == expected.quantize(Decimal("1e-12"), rounding=ROUND_HALF_UP), model


def test_schema_rejects_an_out_of_range_score(con):
    doc = build_results(con)
    doc["models"][0]["overall"]["composite"] = 1.5
    with pytest.raises(ResultsInvalid, match="models/0/overall/composite"):
        validate_results(doc)


def test_example_pack_scores(con):
    # synthetic-strong reports every gold fact correctly (formats vary: "(192).", "11.98 %", casefolded names)
    assert _one(con, "select min(grounding_accuracy) from fct_grade__task_scores where system_id = 'synthetic-strong'")[0] == 1
    # synthetic-weak writes ST-42 for ST-0042 and ACC-7 for ACC-7A: never accepted
    got = con.execute("""select distinct reply_text, passed from fct_grade__fact_checks
                         where suite = 'grade' and fact_key in ('largest_effect_study_id', 'largest_effect_study_standard')
                           and reply_text in ('ST-42', 'ACC-7')""").fetchall()
    assert sorted(got) == [("ACC-7", False), ("ST-42", False)]
    # synthetic-mixed writes "GROSSE ALLEE GRUNDSCHULE" for "Große Allee Grundschule": case-folded match
    n = _one(con, """select count(*) from fct_grade__fact_checks where fact_key = 'top_school_name'
                     and reply_text = 'GROSSE ALLEE GRUNDSCHULE' and passed and not passed_exact""")[0]
    assert n > 0
    # Track 3 rule: no entity ID or no numeric rate -> evidence 0 whatever the judge said
    rows = con.execute("""select evidence_linkage, evidence_linkage_judge from fct_grade__response_scores
                          where track3_rule_applied""").fetchall()
    assert rows and all(e == 0 for e, _ in rows) and any(j > 0 for _, j in rows)
    assert _one(con, "select count(*) from fct_grade__response_scores where track3_rule_applied and track <> 3")[0] == 0
    # judge verdict used only as fallback
    assert _one(con, "select count(*) from fct_grade__text_checks where method = 'judge' and found_deterministic")[0] == 0
    assert _one(con, "select count(*) from fct_grade__text_checks where method = 'judge' and is_present")[0] > 0
    # identical runs -> consistency 1
    assert _one(con, "select min(consistency), max(consistency) from fct_grade__consistency "
                     "where system_id = 'synthetic-strong'") == (1.0, 1.0)


def test_judge_ratings_are_ratings_of_kind_judge_in_the_shared_model(con):
    n, kinds, raters = _one(con, """select count(*), string_agg(distinct rater_kind, ','), string_agg(distinct rater_id, ',')
                                    from int_ratings where suite = 'grade'""")
    assert n == 300 and kinds == "judge" and raters == "synthetic-judge-1@grade-judge-v1"
    assert _one(con, "select count(*) from int_ratings where suite = 'grade' and score_problem is not null")[0] == 0


def _acc(con, suite, run, kind="all"):
    """(n_items, n_correct house_exact, n_correct house_tolerance, accuracy_pct exact, accuracy_pct tolerance)."""
    return con.execute("""select e.n_items, e.n_correct, t.n_correct, e.accuracy_pct, t.accuracy_pct
                          from fct_grade__grounding_run_accuracy e
                          join fct_grade__grounding_run_accuracy t
                            on t.suite = e.suite and t.system_id = e.system_id and t.fact_kind = e.fact_kind
                           and t.answer_rule = 'house_tolerance'
                          where e.answer_rule = 'house_exact' and e.suite = ? and e.system_id = ? and e.fact_kind = ?""",
                       [suite, run, kind]).fetchone()


def test_gsm8k_per_run_accuracy_real_values(con):
    assert _one(con, "select count(distinct system_id) from fct_grade__grounding_run_accuracy where suite = 'grade_gsm8k'")[0] == 24
    # gpt4_COT: the last number of the answer is right for 1,234 of 1,319 (SOURCE.md: 93.56 % with the last number)
    assert _acc(con, "grade_gsm8k", "gpt4_COT") == (1319, 1234, 1234, Decimal("93.56"), Decimal("93.56"))
    # gpt4_noNL: program floats; exact 1,234 (SOURCE.md strict 93.56 %), within 0.01: 1,242 (authors' 94.16 %)
    assert _acc(con, "grade_gsm8k", "gpt4_noNL") == (1319, 1234, 1242, Decimal("93.56"), Decimal("94.16"))


def test_tatqa_per_run_accuracy_real_values(con):
    assert _one(con, "select count(distinct system_id) from fct_grade__grounding_run_accuracy where suite = 'grade_tatqa'")[0] == 5
    # PoT: 1,450 single facts (717 arithmetic + 32 count numeric, 701 span strings); exact 533, tolerance 808
    assert _acc(con, "grade_tatqa", "codex_pot") == (1450, 533, 808, Decimal("36.76"), Decimal("55.72"))
    # arithmetic only: 287 equal the gold float (SOURCE.md) + 1 "$16.4 million" read as 16.4 = 288 exact
    n = con.execute("""select sum(case when passed_exact then 1 else 0 end) from fct_grade__fact_checks f
                       join int_items i on i.suite = f.suite and i.item_id = f.item_id
                       where f.suite = 'grade_tatqa' and f.system_id = 'codex_pot' and i.category = 'arithmetic'""").fetchone()
    assert n[0] == 288


def test_every_grade_mart_column_is_documented(con):
    from pathlib import Path

    import yaml  # PyYAML ships with dbt-core

    doc = yaml.safe_load((Path(__file__).resolve().parents[2] / "models" / "marts" / "grade" / "_grade__models.yml")
                         .read_text(encoding="utf-8"))
    described = {m["name"]: {c["name"] for c in m.get("columns", []) if c.get("description")} for m in doc["models"]}
    marts = [r[0] for r in con.execute("select table_name from information_schema.tables "
                                       "where table_name like 'fct_grade__%' or table_name like 'dim_grade__%'").fetchall()]
    assert len(marts) == 12  # + fct_grade__answer_rule_checks, fct_grade__composite_intervals
    for mart in marts:
        cols = {r[0] for r in con.execute(f"select column_name from (describe {mart})").fetchall()}
        assert cols - described.get(mart, set()) == set(), mart


def test_sql_metric_values_follow_the_python_rule(con):
    from evalhouse.grade.text import metric_number

    rows = con.execute("""select l.label_value, v.metric_value
                          from int_response_labels l
                          join int_grade__responses r on r.response_id = l.response_id
                          left join int_grade__run_metric_values v
                            on v.item_id = r.item_id and v.system_id = r.system_id and v.repetition = r.repetition
                           and v.metric_key = l.label_name""").fetchall()
    assert len(rows) > 500
    for text, sql_value in rows:
        py = metric_number(text)
        assert (py is None and sql_value is None) or py == pytest.approx(sql_value), text


def test_scorecard_out_must_be_a_folder(tmp_path):
    from typer.testing import CliRunner

    from evalhouse.cli import app

    taken = tmp_path / "results.json"
    taken.write_text("{}")
    res = CliRunner().invoke(app, ["scorecard", "--out", str(taken)])
    assert res.exit_code == 2 and f"error: --out {taken}: a file; give a folder" in res.output
    assert taken.read_text() == "{}"
