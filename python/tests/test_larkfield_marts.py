"""The Larkfield marts on the bundled data reproduce Larkfield's published figures (seed 000)."""
from decimal import Decimal

import pytest


def one(con, sql, *params):
    rows = con.execute(sql, list(params)).fetchall()
    assert len(rows) == 1, rows
    return rows[0]


def test_reference_scores_recomputed(warehouse):
    rows = warehouse.execute(
        "select ticket_id, system_id, total, ready, lesson_total, lesson_ready from fct_larkfield_reply_scores "
        "where rater_id = 'course_team' and rubric_version = 1 and lesson_total is not null").fetchall()
    assert len(rows) == 15
    assert all(r[2] == r[4] and r[3] == r[5] for r in rows)
    assert one(warehouse, "select total, ready, correctness from fct_larkfield_reply_scores where ticket_id = 'S12' "
               "and system_id = 'Claude Sonnet 5.5' and rubric_version = 1") == (7, False, 1)
    assert one(warehouse, "select total, ready, format_compliance from fct_larkfield_reply_scores "
               "where ticket_id = 'M01' and system_id = 'Mistral 7B (local)' and rubric_version = 1") == (6, True, 1)


def test_model_run_table(warehouse):
    # Gemma 3 4B under v1: S07 (2), U03 (7), M01 (2) -> 11 points over 3 replies -> 11/24*10 = 4.58; 1 ready.
    row = one(warehouse, "select n_replies_rated, n_ready, score_0_10, correctness_zeros, completeness_zeros, "
              "format_zeros, abstention_zeros from fct_larkfield_model_runs "
              "where system_id = 'Gemma 3 4B (local)' and rubric_version = 1")
    assert row == (3, 1, Decimal("4.58"), 2, 2, 0, 0)
    # Under v2 only the three rescored Gemma replies have a v2 set: U03 8, M01 2, S07 3 -> 13/24*10 = 5.4166 -> 5.42.
    assert one(warehouse, "select score_0_10, n_ready, n_replies_rated from fct_larkfield_model_runs "
               "where system_id = 'Gemma 3 4B (local)' and rubric_version = 2") == (Decimal("5.42"), 1, 3)


def test_incomplete_replies_are_never_ready(warehouse):
    # S02 and M03 have only the published correctness/completeness verdicts: incomplete, not ready, no total.
    rows = warehouse.execute("select score_status, total, ready from fct_reply_scores "
                             "where item_id in ('S02', 'M03')").fetchall()
    assert rows == [("incomplete", None, False)] * 2


def test_word_search_beside_a_person(warehouse):
    rows = dict(((r[0], r[1]), r[2:]) for r in warehouse.execute(
        "select item_id, system_id, word_search_verdict, human_verdict, word_search_outcome "
        "from fct_word_search_vs_human where rubric_version = 1").fetchall())
    assert rows[("S02", "Gemini 3.1 Pro (preview)")] == ("fail", "pass", "false_fail")
    assert rows[("M03", "Gemini 3.1 Pro (preview)")] == ("fail", "pass", "false_fail")
    assert rows[("U03", "Mistral 7B (local)")] == ("pass", "fail", "false_pass")
    by_run = one(warehouse, "select word_search_false_fails, word_search_false_passes from fct_word_search_by_run "
                 "where system_id = 'Gemini 3.1 Pro (preview)' and rubric_version = 1")
    assert by_run == (2, 0)


def test_stale_ratings_list_what_v2_changes(warehouse):
    rows = warehouse.execute("select item_id, system_id, old_score, current_score, rescore_status "
                             "from fct_stale_ratings order by item_id, system_id").fetchall()
    assert ("U03", "Gemma 3 4B (local)", 1, 2, "rescored_changed") in rows
    assert ("M01", "Gemma 3 4B (local)", 1, 1, "rescored_same") in rows
    assert ("S07", "Gemma 3 4B (local)", 1, 2, "rescored_changed") in rows
    assert sum(r[4] == "pending" for r in rows) == 12  # 15 v1 format ratings, 3 rescored


def test_first_filter_languages_and_sentences(warehouse):
    row = one(warehouse, "select detected_language, language_matches_key, sentence_count, json_strict, "
              "json_check_reason from fct_first_filter where item_id = 'S12' and system_id = 'Claude Sonnet 5.5'")
    assert row == ("fr", True, 3, None, "raw output not recorded")


def test_every_mart_column_is_documented():
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2] / "models" / "marts"
    for yml in root.rglob("*.yml"):
        for model in yaml.safe_load(yml.read_text()).get("models", []):
            sql = next(root.rglob(f"{model['name']}.*"))
            assert model.get("description"), model["name"]
            for col in model.get("columns", []):
                assert col.get("description"), f"{model['name']}.{col['name']} ({sql})"


@pytest.mark.parametrize("mart", ["fct_larkfield_reply_scores", "fct_larkfield_model_runs", "fct_reply_scores",
                                  "fct_model_run_scores", "fct_stale_ratings", "fct_first_filter",
                                  "fct_two_reader_agreement", "fct_word_search_vs_human"])
def test_documented_columns_match_the_built_marts(warehouse, mart):
    from pathlib import Path

    import yaml

    root = Path(__file__).resolve().parents[2] / "models" / "marts"
    documented = None
    for yml in root.rglob("*.yml"):
        for model in yaml.safe_load(yml.read_text()).get("models", []):
            if model["name"] == mart:
                documented = [c["name"] for c in model.get("columns", [])]
    built = [r[0] for r in warehouse.execute(f"describe {mart}").fetchall()]
    assert documented == built


def test_replies_without_text_have_no_language_and_say_why(warehouse):
    rows = warehouse.execute(
        "select suite, count(*), count(detected_language), count_if(detected_language_reason = 'no reply text') "
        "from fct_first_filter where not has_text group by suite order by suite").fetchall()
    assert rows == [("hanna", 1056, 0, 1056), ("larkfield", 6, 0, 6)]
    assert one(warehouse, "select count(*) from fct_first_filter where has_text and detected_language is null") == (0,)
