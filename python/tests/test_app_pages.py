"""streamlit AppTest for every page of the app, asserting real values from the built (published) warehouse.

`make test` builds and publishes the warehouse before pytest; these tests only read it (read-only connections).
"""
import sys
from pathlib import Path

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from evalhouse import paths

VIEWS = Path(__file__).resolve().parents[2] / "app" / "views"
sys.path.insert(0, str(VIEWS.parent))  # app_common

pytestmark = pytest.mark.skipif(not paths.published_db().is_file(), reason="run `make build` first")


def page(name: str) -> AppTest:
    return AppTest.from_file(str(VIEWS / f"{name}.py"), default_timeout=60)


def frame(at: AppTest, *columns: str):
    """The first dataframe shown with all these columns (AppTest does not expose a dataframe's key)."""
    for d in at.dataframe:
        if set(columns) <= set(d.value.columns):
            return d.value
    raise AssertionError(f"no dataframe with columns {columns}: {[list(d.value.columns) for d in at.dataframe]}")


def no_errors(at: AppTest) -> AppTest:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    return at


def test_leaderboard_lesson_columns_and_rank_bands():
    at = no_errors(page("leaderboard").run())
    assert at.sidebar.selectbox(key="lb_suite").value == "larkfield"
    assert at.sidebar.selectbox(key="lb_version").value == 1  # the version with the most rated runs
    assert at.sidebar.selectbox(key="lb_rater").value == "course_team"  # one rater by default, never "all"
    board = frame(at, "model run", "ready of N").set_index("model run")
    assert at.dataframe[0].proto.placeholder == "—"  # a missing value shows as a dash, not "None"
    mistral = board.loc["Mistral 7B (local)"]
    assert mistral["ready of N"] == "1 of 4" and mistral["score 0-10"] == pytest.approx(6.88) and mistral["n"] == 4
    assert mistral["correctness 0"] == 1 and mistral["completeness 0"] == 1 and mistral["format_compliance 0"] == 0
    assert mistral["95% CI low"] == pytest.approx(6.25) and mistral["95% CI high"] == pytest.approx(7.5)
    # Larkfield's runs have 1-4 complete replies each, fewer than min_replies_for_interval (5): two identical
    # replies give the degenerate interval [10, 10], flagged, and no run is ranked.
    for run in ("Claude Haiku 5.5", "Claude Opus 5.5", "Gemini 3.5 Flash"):
        row = board.loc[run]
        assert row["n"] == 2 and row["95% CI low"] == row["95% CI high"] == 10.0
        assert row["CI flag"] == "n < 5: not ranked" and pd.isna(row["rank band"]) and pd.isna(row["tie group"])
        assert row["not ranked because"] == "2 complete replies, fewer than 5 (min_replies_for_interval): not ranked"
    gemini = board.loc["Gemini 3.1 Pro (preview)"]  # one complete reply of three: no interval, no rank
    assert gemini["n"] == 1 and gemini["ready of N"] == "1 of 3" and pd.isna(gemini["rank band"])
    assert gemini["not ranked because"].startswith("1 complete reply, fewer than 5")
    assert board["rank band"].isna().all()
    assert list(board.index[:3]) == sorted(board.index[:3])  # ties at 10.00 ordered by name

    at.sidebar.selectbox(key="lb_version").set_value(2).run()
    board = frame(no_errors(at), "model run", "ready of N")
    assert board["model run"].tolist() == ["Gemma 3 4B (local)"] and board["score 0-10"].iloc[0] == pytest.approx(5.42)

    at.sidebar.selectbox(key="lb_version").set_value(1).run()
    at.text_input(key="lb_filter").input("claude").run()
    assert sorted(frame(at, "model run", "ready of N")["model run"]) == [
        "Claude Haiku 5.5", "Claude Opus 5.5", "Claude Sonnet 5.5"]
    at.text_input(key="lb_filter").input("").run()
    at.selectbox(key="lb_sort").set_value("model run (A-Z)").run()
    names = frame(at, "model run", "ready of N")["model run"].tolist()
    assert names == sorted(names)
    at.sidebar.selectbox(key="lb_kind").set_value("human").run()
    assert len(frame(no_errors(at), "model run", "ready of N")) == 7


def _chart_data(at: AppTest) -> pd.DataFrame:
    import json

    import pyarrow as pa

    (chart,) = at.get("vega_lite_chart")
    if chart.proto.data.data:  # Streamlit sends a dict spec's data as Arrow
        return pa.ipc.open_stream(chart.proto.data.data).read_all().to_pandas()
    return pd.DataFrame(json.loads(chart.proto.spec)["data"]["values"])


def test_leaderboard_suite_without_ready_rule_and_several_rubrics():
    at = page("leaderboard").run()
    at.sidebar.selectbox(key="lb_suite").set_value("sottana").run()
    no_errors(at)
    board = frame(at, "model run", "rubric")
    assert len(board) == 12  # 4 runs x 3 task rubrics, one rater
    assert board["ready of N"].isna().all()  # no ready rule: blank, never "0 of 100"
    assert (board["n"] >= 98).all()
    # tie groups are numbered within each task rubric and named so
    gec = board[board["rubric"] == "sottana_gec"]
    # GEC's error counts (lower is better) count their worst level (most errors), headed "<criterion> worst"
    assert {"grammaticality worst", "overcorrection worst", "semantics 0"} <= set(board.columns)
    assert "grammaticality 0" not in board.columns
    rater = at.sidebar.selectbox(key="lb_rater").value
    opt = gec[gec["model run"] == "opt-iml-max-30b"].iloc[0]
    # replies with 2 or more errors left (fct_model_run_criterion_scores.n_at_worst) per rater
    assert opt["grammaticality worst"] == {"prolific_5995e": 10, "gpt-4": 5, "prolific_61102": 29,
                                           "prolific_57e2b": 29}[rater]
    # GEC counts errors (lower is better): runs separate into tie groups of this rater and rubric
    assert all(t.startswith("sottana_gec · ") for t in gec["tie group"]) and gec["rank band"].notna().all()
    # the chart's rows are unique runs of the board: each dot sits on its own bar (gpt-3.5-turbo is in all three)
    data = _chart_data(at)
    assert len(data) == 12 and data["label"].is_unique
    row = data[data["label"] == "gpt-3.5-turbo · sottana_gec"].iloc[0]
    board_row = board[(board["model run"] == "gpt-3.5-turbo") & (board["rubric"] == "sottana_gec")].iloc[0]
    assert row["score_0_10"] == pytest.approx(board_row["score 0-10"])
    assert row["score_ci_low"] <= row["score_0_10"] <= row["score_ci_high"]


def test_leaderboard_all_raters_keeps_raters_apart():
    at = page("leaderboard").run()
    at.sidebar.selectbox(key="lb_suite").set_value("hanna").run()
    assert at.sidebar.selectbox(key="lb_rater").value != "all"
    at.sidebar.selectbox(key="lb_kind").set_value("human").run()
    at.sidebar.selectbox(key="lb_rater").set_value("all").run()
    board = frame(no_errors(at), "model run", "rater")
    assert list(board.columns[:3]) == ["model run", "rubric", "rater"]  # HANNA: stories and explanations rubrics
    # one run appears once per rubric x rater, each rater's rows together, and a tie group names its rater
    assert board.groupby(["model run", "rubric", "rater"]).size().max() == 1
    keys = list(zip(board["rubric"], board["rater"]))
    assert keys == sorted(keys)
    ranked = board.dropna(subset=["tie group"])
    assert len(ranked) > 0
    assert all(g.split(" · ")[:2] == [rb, r] for g, rb, r in zip(ranked["tie group"], ranked["rubric"], ranked["rater"]))


def test_points_lost_heat_map_and_cell_replies():
    at = no_errors(page("points_lost").run())
    assert at.sidebar.selectbox(key="pl_rater").value == "course_team"
    # Default cell: the most zeros (Gemma 3 4B, correctness: 2 of 3 scored replies at 0).
    assert at.selectbox(key="pl_run_None").value == "Gemma 3 4B (local)"
    assert at.selectbox(key="pl_crit_None").value == "correctness"
    assert "2 of 3 scored replies at the minimum" in cell_caption(at)
    replies = frame(at, "open", "item_id")
    assert replies["item_id"].tolist()[:2] == ["M01", "S07"] and replies["score"].tolist() == [0, 0, 2]
    assert replies["open"].iloc[0] == "./reply?response_id=larkfield-M01-2e3f70ab4524-r1"
    at.selectbox(key="pl_run_None").set_value("Mistral 7B (local)").run()
    replies = frame(no_errors(at), "open", "item_id")
    assert replies.iloc[0]["item_id"] == "U03" and replies.iloc[0]["reason"] == "invents a no-discount rule"
    at.radio(key="pl_metric").set_value("mean points lost").run()
    # Mistral correctness: 0, 1, 2, 2 of 2: mean 1.25, points lost (2-0 + 2-1) / 4 = 0.75
    assert "mean score 1.25, mean points lost 0.75" in cell_caption(no_errors(at))
    assert not any("Lower is better for" in c.value for c in at.caption)  # Larkfield has no lower-is-better one


def cell_caption(at: AppTest) -> str:
    """The caption under the heat map's chosen cell (it counts the cell's scored replies)."""
    return next(c.value for c in at.caption if "scored replies" in c.value or "scored none" in c.value)


def test_points_lost_lower_is_better_criterion_is_red_where_errors_are():
    # Sottana GEC grammaticality counts errors left (0-2, lower is better): its worst level is 2, not 0.
    at = page("points_lost").run()
    at.sidebar.selectbox(key="pl_suite").set_value("sottana").run()
    at.sidebar.selectbox(key="pl_rater").set_value("prolific_57e2b").run()
    assert any("Lower is better for grammaticality, overcorrection" in c.value for c in no_errors(at).caption)
    at.selectbox(key="pl_run_None").set_value("opt-iml-max-30b · sottana_gec").run()
    at.selectbox(key="pl_crit_None").set_value("grammaticality").run()
    caption = cell_caption(no_errors(at))
    # 29 of opt-iml's 100 corrections keep 2 or more errors (fct_model_run_criterion_scores.n_at_worst); the mean
    # 1.00 errors is also its mean points lost: max 2 - (2 + 0 - score) = score
    assert "grammaticality is lower-is-better" in caption
    assert ("29 of 100 scored replies at the worst level (the maximum); mean score 1.00, mean points lost 1.00"
            in caption)
    replies = frame(at, "open", "item_id")
    scores = replies["score"].tolist()
    assert scores[:29] == [2] * 29 and scores == sorted(scores, reverse=True)  # worst (most errors) first
    chart = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    spec = chart[0].proto.spec
    assert "grammaticality (lower is better)" in spec and "semantics (lower is better)" not in spec


def test_grade_page_composite_leaderboard_with_intervals():
    at = no_errors(page("grade").run())
    board = frame(at, "model", "composite", "95% CI low", "tie group").set_index("model")
    # fct_grade__composite_intervals on the bundled example pack: three models far apart, three groups of one
    assert board.index.tolist() == ["synthetic-strong", "synthetic-mixed", "synthetic-weak"]
    strong = board.loc["synthetic-strong"]
    assert strong["composite"] == pytest.approx(0.9775) and strong["tasks"] == 10
    assert strong["95% CI low"] == pytest.approx(0.9725) and strong["95% CI high"] == pytest.approx(0.9815)
    assert board["rank band"].tolist() == ["1", "2", "3"] and board["tie group"].tolist() == [1, 2, 3]
    assert board.loc["synthetic-weak", "composite"] == pytest.approx(0.344238, abs=1e-6)
    assert any("percentile bootstrap over tasks (2,000 resamples" in c.value for c in at.caption)
    dims = frame(at, "model", "grounding_accuracy", "consistency").set_index("model")
    assert dims.loc["synthetic-mixed", "grounding_accuracy"] == pytest.approx(0.821667, abs=1e-6)
    data = _chart_data(at)
    assert sorted(data["system_id"]) == sorted(board.index) and (data["composite_ci_low"] <= data["composite"]).all()


def _slice_script(rater_required: bool) -> None:
    import app_common as ac

    ac.pick_slice(("sig",), "t", rater_required=rater_required)


@pytest.mark.parametrize("rater_required", [True, False])
def test_default_rater_is_the_one_with_most_ratings(rater_required, monkeypatch):
    import app_common as ac

    # alice blind-scored 4 replies; the course team rated 17: alice comes first by name only
    monkeypatch.setattr(ac, "leaderboard_filters", lambda sig: pd.DataFrame({
        "suite": ["larkfield"] * 2, "rubric_id": ["r"] * 2, "rubric_version": [1, 1], "rater_kind": ["human"] * 2,
        "rater_id": ["alice", "course_team"], "n_runs": [4, 7], "n_replies": [4, 17]}))
    at = AppTest.from_function(_slice_script, args=(rater_required,), default_timeout=30).run()
    rater = no_errors(at).sidebar.selectbox(key="t_rater")
    assert rater.value == "course_team"  # not "alice", the first name, nor "all"
    assert rater.options == (["alice", "course_team"] if rater_required else ["alice", "course_team", "all"])


def test_points_lost_sottana_has_one_row_per_run_and_rubric():
    at = page("points_lost").run()
    at.sidebar.selectbox(key="pl_suite").set_value("sottana").run()
    # Sottana's runs repeat across its three task rubrics: one row per run x rubric, never two cells on one square
    runs = no_errors(at).selectbox(key="pl_run_None").options
    assert "gpt-3.5-turbo · sottana_gec" in runs and len(runs) == len(set(runs)) == 12
    at.selectbox(key="pl_run_None").set_value("gpt-3.5-turbo · sottana_simplification").run()
    at.selectbox(key="pl_crit_None").set_value("semantics").run()
    replies = frame(no_errors(at), "open", "item_id")
    assert len(replies) == 100 and replies["item_id"].str.contains("simpl").all()  # not the GEC task's semantics


def test_heat_map_scale_blanks_and_legend():
    import altair as alt  # noqa: F401 -- app_common builds altair charts
    import app_common as ac

    # y is lower-is-better (scores 0-2 counting errors): 2 is its worst level
    heat = pd.DataFrame({"system_id": ["a", "a", "b", "b"], "criterion": ["x", "y", "x", "y"],
                         "criterion_order": [1, 2, 1, 2], "direction": ["higher", "lower", "higher", "lower"],
                         "n_scored": [3, 0, 2, 2], "n_at_minimum": [0, 0, 0, 0], "n_at_worst": [0, 0, 0, 2],
                         "n_at_maximum": [3, 0, 2, 2], "mean_score": [2.0, 0.0, 2.0, 2.0],
                         "mean_points_lost": [0.0, 0.0, 0.0, 2.0], "n_stale": [0, 0, 0, 0]})
    cells = ac.heatmap_frame(heat)
    assert pd.isna(cells.loc[1, "n_at_worst"]) and pd.isna(cells.loc[1, "mean_points_lost"])  # never scored: blank
    assert cells.loc[0, "n_at_worst"] == 0  # scored, nothing at the worst level: a real 0
    assert cells["criterion_label"].tolist() == ["x", "y (lower is better)", "x", "y (lower is better)"]
    spec = ac.heatmap_chart(cells.iloc[[0, 1, 2]], "n_at_worst", "worst", ["x", "y"], ["a", "b"]).to_dict()
    rect, text = spec["layer"]
    color = rect["encoding"]["color"]
    scored = color["condition"]  # cells with a value; the others are grey
    assert scored["test"] == "isValid(datum.n_at_worst)" and color["value"] == "#eeeeee"
    # all-zero map: the scale starts at 0 and reaches at least 1, so 0 is the scheme's lightest colour, not red
    assert scored["scale"]["domain"] == [0, 1.0] and scored["scale"]["scheme"] == "reds"
    assert scored["legend"]["format"] == "d"  # whole numbers, never "0.000000"
    assert {"filter": "isValid(datum.n_at_worst)"} in text["transform"]
    assert rect["encoding"]["x"]["sort"] == ["x", "y (lower is better)"]
    spec = ac.heatmap_chart(cells, "mean_points_lost", "mean points lost", ["x", "y"], ["a", "b"]).to_dict()
    scored = spec["layer"][0]["encoding"]["color"]["condition"]
    # the lower-is-better cell at its maximum (2 errors) is the reddest: red means bad for both criteria
    assert scored["legend"]["format"] == ".2f" and scored["scale"]["domain"] == [0, 2.0]
    assert scored["scale"]["scheme"] == "reds"
    plain = ac.heatmap_frame(heat.drop(columns=["direction"]))  # no direction column: higher is better
    assert plain["criterion_label"].tolist() == ["x", "y", "x", "y"]


def test_reply_drill_down_shows_everything():
    at = page("reply")
    at.query_params["response_id"] = "larkfield-U03-7c59aa44763c-r1"
    no_errors(at.run())
    assert at.selectbox(key="rd_item_larkfield-U03-7c59aa44763c-r1_larkfield").value == "U03"
    assert "we do not offer discounts for business orders over 5,000 dollars" in at.code[0].value
    assert any("send to a person (rule 8)" in t.value for t in at.text)  # the answer key
    checks = pd.concat([d.value for d in at.dataframe if list(d.value.columns) == ["check", "value"]])
    checks = checks.set_index("check")["value"]
    assert checks["detected_language"] == "en" and checks["json_check_reason"] == "raw output not recorded"
    ratings = frame(at, "stale", "reason", "rater_kind")
    assert set(ratings["reason"]) == {"invents a no-discount rule"}
    assert set(ratings["rater_kind"]) == {"human"} and set(ratings["rubric_version"]) == {1}
    fmt = ratings[ratings["criterion"] == "format_compliance"].iloc[0]
    assert fmt["stale"] == "stale: rubric changed"  # v2 changed format_compliance, not re-scored yet
    assert (ratings[ratings["criterion"] == "correctness"]["stale"] == "").all()
    assert frame(at, "rescore_status")["rescore_status"].tolist() == ["pending"]
    v1 = frame(at, "criterion", "level 2").set_index("criterion")
    assert v1.loc["correctness", "level 2"] == "Everything is true"
    anchor_tables = [d.value for d in at.dataframe if "level 2" in d.value.columns]
    assert len(anchor_tables) == 2  # rubric versions 1 and 2


def test_agreement_page():
    at = no_errors(page("agreement").run())
    # HANNA's and Sottana's rater positions share items; the Larkfield lesson has one reader only
    labels = at.selectbox(key="ag_pair").options
    assert any("· sottana v" in label for label in labels) and not any("· larkfield v" in label for label in labels)
    conf = next(d.value for d in at.dataframe if "fail" in list(d.value.index))
    # both rubric versions: v2 adds the three rescored Gemma replies (S07 and M01 fail/fail; U03 has no text)
    assert conf.loc["fail", "pass"] == 2 and conf.loc["pass", "fail"] == 3 and conf.loc["fail", "fail"] == 5
    disagree = frame(at, "word_search_outcome")
    assert ("U03", "Mistral 7B (local)", "false_pass") in set(
        zip(disagree["item_id"], disagree["system_id"], disagree["word_search_outcome"]))


def test_agreement_page_plots_every_optional_mart_and_defaults_to_the_biggest_pair():
    at = no_errors(page("agreement").run())
    # the pair that shares the most replies (1,056 HANNA stories), not the alphabetically first judge pair
    assert at.selectbox(key="ag_pair").value == "human_position_1 vs human_position_2 · hanna v1 (1056 shared replies)"
    keys = {s.key for s in at.selectbox}
    plotted = [h.value for h in at.header if f"ag_{h.value}_label" in keys]
    # text columns (pandas 3 "str" dtype) are offered as plot labels: every reliability mart gets its plot
    assert {"fct_coder_set_alpha", "fct_interrater_reliability", "fct_judge_diagnostics",
            "fct_judge_human_agreement"} <= set(plotted)
    for table in plotted:
        assert "criterion" in at.selectbox(key=f"ag_{table}_label").options, table
    assert len(at.get("vega_lite_chart")) == 1 + len(plotted)  # two-reader plot + one per plotted mart


def test_agreement_page_judge_failure_policy_and_direction_labels():
    at = no_errors(page("agreement").run())
    assert at.radio(key="ag_policy").value == "excluded"  # the default: a failure code is not a judgement
    assert any("Default excluded" in c.value for c in at.caption)

    def llama(at):
        diag = frame(at, "judge_mean", "mean_bias", "n_judge_scores_excluded")
        row = diag[(diag["rater_id"] == "Llama-13B/eval_prompt_1") & (diag["criterion"] == "coherence")]
        return diag, row.iloc[0]

    diag, row = llama(at)
    assert set(diag["judge_failure_policy"]) == {"excluded"}
    # HANNA: Llama-13B (prompt 1) gave 5 of the 1,056 stories a failure code on coherence
    assert row["n_items"] == 1051 and row["n_judge_scores_excluded"] == 5
    assert row["judge_mean"] == pytest.approx(2.495909, abs=1e-6)
    # Sottana's GEC error counts are lower-is-better: the bias columns are labelled so
    assert any("lower-is-better criterion (grammaticality, overcorrection) a positive bias means the judge flags "
               "more faults" in c.value for c in at.caption)
    at.radio(key="ag_policy").set_value("as_recorded").run()
    diag, row = llama(no_errors(at))
    assert set(diag["judge_failure_policy"]) == {"as_recorded"}
    assert row["n_items"] == 1056 and row["n_judge_scores_excluded"] == 0  # failure codes averaged in
    assert row["judge_mean"] == pytest.approx(2.484722, abs=1e-6)
    agree = frame(at, "kendall_tau_b", "level")
    assert set(agree["judge_failure_policy"]) == {"as_recorded"}


def test_label_columns_whatever_the_text_dtype():
    import app_common as ac

    assert ac.is_label_column(pd.Series(["a", "b", None], dtype="str"))
    assert ac.is_label_column(pd.Series(["a", "b"], dtype=object))
    assert not ac.is_label_column(pd.Series([1, 2]))
    assert not ac.is_label_column(pd.Series([True, False]))
    assert not ac.is_label_column(pd.Series([str(i) for i in range(61)], dtype="str"))  # too many to plot


def test_reply_page_opens_on_the_default_suite():
    at = no_errors(page("reply").run())
    assert at.selectbox(key="rd_suite_None").value == "larkfield"  # as the leaderboard and heat map


def test_blind_scoring_without_packets(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(paths.published_db()))
    monkeypatch.setattr(paths, "blind_keys_dir", lambda: tmp_path)  # an empty keys folder
    at = no_errors(page("blind_scoring").run())
    assert "No blind packets yet" in at.info[0].value
    assert at.text_input(key="bs_rater").value == ""


def test_ranking_practice_counts_pairs():
    at = no_errors(page("ranking_practice").run())
    assert at.selectbox(key="rp_ticket").value == "S07"
    assert not any("Claude Opus" in m.value for m in at.markdown)  # models hidden before reveal
    at.button(key="rp_up_S07_B").click().run()  # order B, A, C, D
    assert "Your order, best first: B, A, C, D" in " ".join(m.value for m in at.markdown)
    at.button(key="rp_reveal_S07").click().run()
    no_errors(at)
    # BA, BC, AC same as the rubric (8>5, 8>2, 5>2); AD, CD not; BD tied (8 = 8): 3 of 5.
    assert at.success[0].value.startswith("3 of 5 pairs in the same order as the rubric")
    scores = frame(at, "reply", "system_id")
    assert scores["reply"].tolist() == ["B", "A", "C", "D"]
    assert scores["system_id"].tolist()[0] == "Claude Opus 5.5" and scores["total"].tolist() == [8, 5, 2, 8]
    at.selectbox(key="rp_ticket").set_value("U03").run()
    assert any("Larkfield's source does not print this reply" in t.value for t in no_errors(at).text)


def test_marts_page_lists_every_mart():
    at = no_errors(page("marts").run())
    counts = frame(at, "mart", "rows").set_index("mart")
    assert counts.loc["fct_larkfield_model_runs", "rows"] == 8
    assert counts.loc["fct_larkfield_ranking_practice", "rows"] == 12
    at.selectbox(key="mt_table").set_value("dim_items").run()
    shown = at.dataframe[1].value
    assert len(shown) == min(1000, counts.loc["dim_items", "rows"])  # the first rows of the table


def test_missing_warehouse_says_run_make_build(tmp_path, monkeypatch):
    monkeypatch.setenv("EVALHOUSE_PUBLISHED_DB", str(tmp_path / "evalhouse.duckdb"))
    for name in ("leaderboard", "points_lost", "reply", "agreement", "grade", "blind_scoring", "round_scoring",
                 "rounds", "ranking_practice", "marts"):
        at = page(name).run()
        assert not at.exception
        assert "run `make build`" in at.error[0].value, name


def test_main_script_navigation():
    at = AppTest.from_file(str(VIEWS.parent / "streamlit_app.py"), default_timeout=60).run()
    no_errors(at)
    assert at.title[0].value == "Leaderboard"
