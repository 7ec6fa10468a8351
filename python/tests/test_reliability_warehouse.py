"""The reliability marts in the built warehouse, on real data (HANNA, Sottana). `make test` builds first; these
tests open the published warehouse read-only (evalhouse.warehouse.published.connect_readonly)."""
from __future__ import annotations

import pytest

from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

HANNA_CRITERIA = ["coherence", "complexity", "empathy", "engagement", "relevance", "surprise"]
HANNA_JUDGES = [f"{llm}/eval_prompt_{p}" for llm in ["Beluga-13B", "ChatGPT", "Llama-13B", "Mistral-7B",
                                                     "OrcaPlatypus"] for p in range(1, 5)]

# Sottana et al. (2023), data/outputs/potato_aggregated/krippendorff_alpha_scores.json: rank-based alphas
# (nominal, ordinal, interval) without and with GPT-4, per task and criterion.
SOTTANA_RANK_ALPHAS = {
    ("summarization", "relevance"): ((0.5926, 0.8778, 0.8778), (0.375, 0.8125, 0.8125)),
    ("summarization", "fluency"): ((0.5926, 0.8778, 0.8778), (0.2079, 0.7758, 0.8157)),
    ("summarization", "coherence"): ((1.0, 1.0, 1.0), (0.6875, 0.9062, 0.9062)),
    ("summarization", "consistency"): ((0.614, 0.9467, 0.9684), (0.4554, 0.8766, 0.8638)),
    ("simplification", "semantics"): ((1.0, 1.0, 1.0), (0.5312, 0.7188, 0.7188)),
    ("simplification", "fluency"): ((1.0, 1.0, 1.0), (0.5545, 0.532, 0.4952)),
    ("simplification", "simplicity"): ((0.3889, 0.6333, 0.6333), (0.375, 0.625, 0.625)),
    ("gec", "semantics"): ((0.5926, 0.8778, 0.8778), (0.2188, 0.3438, 0.3438)),
    ("gec", "grammaticality"): ((1.0, 1.0, 1.0), (0.5545, 0.843, 0.8317)),
    ("gec", "overcorrection"): ((0.2281, 0.57, 0.6207), (0.1584, 0.5685, 0.5753)),
}


@pytest.fixture(scope="module")
def con():
    try:
        c = connect_readonly()
    except WarehouseMissing as exc:  # pragma: no cover - make test always builds first
        pytest.fail(str(exc))
    yield c
    c.close()


def rows(con, sql, *params):
    cur = con.execute(sql, list(params))
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


# ------------------------------------------------------------------------------------------- HANNA

def test_hanna_data_model_counts(con):
    r = rows(con, """select count(distinct response_id) filter (where system_id <> 'llm_explainer') as stories,
                            count(distinct system_id) filter (where system_id <> 'llm_explainer') as systems,
                            count(*) filter (where rater_kind = 'human' and rubric_id = 'hanna_story') as human
                     from int_reliability_scores where suite = 'hanna'""")[0]
    assert r == {"stories": 1056, "systems": 11, "human": 1056 * 3 * 6}


def test_hanna_tau_b_for_every_judge_and_the_human_ceiling(con):
    got = rows(con, """select criterion, rater_id, level, kendall_tau_b, n, n_systems
                       from (select * from fct_judge_human_agreement where judge_failure_policy = 'excluded') as judge_human_agreement
                       where suite = 'hanna' and rubric_id = 'hanna_story' and reference_system_included""")
    index = {(g["criterion"], g["rater_id"], g["level"]): g for g in got}
    for criterion in HANNA_CRITERIA:
        for rater in HANNA_JUDGES + ["human_position_1", "human_position_2", "human_position_3"]:
            item, system = index[(criterion, rater, "item")], index[(criterion, rater, "system")]
            assert item["kendall_tau_b"] is not None and -1 <= item["kendall_tau_b"] <= 1
            assert system["kendall_tau_b"] is not None and system["n"] == 11
            # every story, less the few a judge left out of scale (e.g. Mistral-7B's -1 / 0 codes)
            if rater.startswith("human_"):
                assert item["n"] == 1056
            else:
                assert 950 < item["n"] <= 1056
    # the human ceiling beats the judges on average at item level
    ceiling = [g["kendall_tau_b"] for g in got if g["level"] == "item" and g["rater_id"].startswith("human_")]
    judges = [g["kendall_tau_b"] for g in got if g["level"] == "item" and "/" in g["rater_id"]]
    assert min(ceiling) > sum(judges) / len(judges)


def test_hanna_reference_system_flag(con):
    r = rows(con, """select reference_system_included, level, min(n) as n
                     from (select * from fct_judge_human_agreement where judge_failure_policy = 'excluded') as judge_human_agreement
                     where suite = 'hanna' and rater_id = 'ChatGPT/eval_prompt_1' and criterion = 'relevance'
                     group by all order by all""")
    assert [(x["reference_system_included"], x["level"], x["n"]) for x in r] == [
        (False, "item", 960), (False, "system", 10), (True, "item", 1056), (True, "system", 11)]


def test_hanna_one_way_icc_all_criteria(con):
    got = {g["criterion"]: g for g in rows(con, """select * from fct_interrater_reliability
                                                    where suite = 'hanna' and rubric_id = 'hanna_story'""")}
    assert sorted(got) == HANNA_CRITERIA
    for g in got.values():
        assert g["icc_1_1"] is not None and g["icc_1_k"] is not None and g["icc_k"] == 3
        assert g["icc_n_units"] == 1056 and g["n_raters"] == 3 and g["n_ratings_used"] == 3168
        for col in ("alpha_nominal", "alpha_ordinal", "alpha_interval", "fleiss_kappa", "mean_pairwise_spearman"):
            assert g[col] is not None, col
    # HANNA's own COLING notebook: Coherence has a negative one-way ICC (-0.055)
    assert round(got["coherence"]["icc_1_1"], 3) == -0.055
    assert got["complexity"]["icc_1_1"] == pytest.approx(0.278, abs=5e-4)


def test_hanna_user_study_gwet_ac1(con):
    got = {g["criterion"]: g for g in rows(con, """select * from fct_interrater_reliability
                                                    where suite = 'hanna' and rubric_id = 'hanna_explanation_flags'""")}
    non_constant = ["follows_guidelines", "syntax_issue", "superfluous", "unsubstantiated", "incoherence"]
    for flag in non_constant:
        assert got[flag]["is_binary"] and got[flag]["n_units_pairable"] == 100
        assert got[flag]["gwet_ac1"] is not None and got[flag]["gwet_ac1_reason"] is None
    constant = got["incorrectness"]
    assert constant["gwet_ac1"] is None and "one category" in constant["gwet_ac1_reason"]
    assert constant["fleiss_kappa"] is None and constant["exact_agreement"] == 1.0


def test_hanna_out_of_scale_judge_scores_are_excluded_and_counted(con):
    r = rows(con, """select sum(n_judge_scores_excluded) as excluded, min(n_items) as n_min
                     from (select * from fct_judge_diagnostics where judge_failure_policy = 'excluded') as judge_diagnostics where suite = 'hanna' and rater_id = 'Mistral-7B/eval_prompt_1'""")[0]
    assert r["excluded"] > 0 and r["n_min"] < 1056
    raw = rows(con, """select count(*) as n from int_ratings where suite = 'hanna' and score_problem = 'out_of_range'""")
    assert raw[0]["n"] == 255
    hanna_diag = rows(con, "select * from (select * from fct_judge_diagnostics where judge_failure_policy = 'excluded') as judge_diagnostics where suite = 'hanna' and criterion = 'relevance' and rater_kind = 'judge'")
    assert len(hanna_diag) == 20
    assert all(d["judge_length_spearman"] is None and d["length_reason"] == "no response texts in this suite"
               for d in hanna_diag)


# ------------------------------------------------------------------------------------------- Sottana

def test_sottana_rank_alphas_reproduce_the_paper(con):
    got = rows(con, """select task, criterion, coder_set, rank_alpha_nominal, rank_alpha_ordinal, rank_alpha_interval
                       from fct_coder_set_alpha where suite = 'sottana'""")
    assert len(got) == 20  # 10 task x criterion, humans and humans + gpt-4
    for g in got:
        without, with_gpt4 = SOTTANA_RANK_ALPHAS[(g["task"], g["criterion"])]
        expected = without if g["coder_set"] == "humans" else with_gpt4
        assert tuple(round(g[f"rank_alpha_{lvl}"], 4) for lvl in ("nominal", "ordinal", "interval")) == expected


def test_sottana_item_level_alphas_with_and_without_gpt4(con):
    got = rows(con, """select task, criterion, coder_set, judge_rater_id, n_coders, n_units_pairable,
                              item_alpha_nominal, item_alpha_ordinal, item_alpha_interval, ranking_tau_b_vs_human_mean
                       from fct_coder_set_alpha where suite = 'sottana'""")
    for g in got:
        assert g["n_units_pairable"] == 400  # 100 items x 4 systems per task
        assert None not in (g["item_alpha_nominal"], g["item_alpha_ordinal"], g["item_alpha_interval"])
        if g["coder_set"] == "humans":
            assert g["n_coders"] == 3 and g["judge_rater_id"] is None
        else:
            assert g["n_coders"] == 4 and g["judge_rater_id"] == "gpt-4"
            assert g["ranking_tau_b_vs_human_mean"] is not None


def test_sottana_system_rankings_and_direction(con):
    r = rows(con, """select system_id, system_rank, mean_score, higher_is_better from fct_system_rankings
                     where suite = 'sottana' and task = 'gec' and criterion = 'grammaticality'
                       and ranker = 'prolific_57e2b' order by system_rank""")
    # the authors' gec_ranks.csv: errors left ranked ascending -> gpt-3.5-turbo 1, text-davinci-003 2,
    # gold_reference 3, opt-iml-max-30b 4 (means 0.47, 0.54, 0.64, 1.0)
    assert [(x["system_id"], x["system_rank"]) for x in r] == [
        ("gpt-3.5-turbo", 1.0), ("text-davinci-003", 2.0), ("gold_reference", 3.0), ("opt-iml-max-30b", 4.0)]
    assert [round(float(x["mean_score"]), 2) for x in r] == [0.47, 0.54, 0.64, 1.0]
    assert not r[0]["higher_is_better"]


def test_sottana_diagnostics_have_length_correlation(con):
    got = rows(con, "select * from (select * from fct_judge_diagnostics where judge_failure_policy = 'excluded') as judge_diagnostics where suite = 'sottana'")
    assert len(got) == 10
    for g in got:
        assert g["n_items"] == 400  # 100 items x 4 systems
        assert g["judge_length_spearman"] is not None and g["human_length_spearman"] is not None
        assert g["mean_bias"] is not None and 0 <= g["same_level_share"] <= 1


def test_sottana_reliability_rows(con):
    got = rows(con, "select * from fct_interrater_reliability where suite = 'sottana'")
    assert sorted((g["task"], g["criterion"]) for g in got) == sorted(SOTTANA_RANK_ALPHAS)
    for g in got:
        assert g["n_raters"] == 3 and g["n_ratings_excluded"] == 0
        assert g["alpha_interval"] is not None and g["icc_1_1"] is not None


def test_every_mart_column_is_documented(con):
    import yaml

    from evalhouse import paths

    spec = yaml.safe_load((paths.project_dir() / "models" / "marts" / "reliability" /
                           "_reliability__models.yml").read_text(encoding="utf-8"))
    for model in spec["models"]:
        documented = [c["name"] for c in model["columns"] if c.get("description")]
        actual = [r[0] for r in con.execute(f"describe {model['name']}").fetchall()]
        assert documented == actual, model["name"]


def _order(means: dict[str, float]) -> list[str]:
    return sorted(means, key=lambda s: (-means[s], s))


def test_sottana_gec_leaderboard_follows_direction_adjusted_criterion_means(con):
    # suite.yml declares GEC grammaticality (errors left, 0-2) and overcorrection (0-3) lower-is-better: a reply's
    # total counts max + min - score for them. Each human rater's leaderboard (fct_model_run_scores) must then rank
    # the runs as the sum of that rater's direction-adjusted criterion means, computed here from the raw scores.
    scale = {"semantics": (1, 5, "higher"), "grammaticality": (0, 2, "lower"), "overcorrection": (0, 3, "lower")}
    raw = rows(con, """select rater_id, system_id, criterion, avg(score) as mean_score, count(*) as n
                       from fct_ratings where suite = 'sottana' and rubric_id = 'sottana_gec' and rater_kind = 'human'
                       group by all""")
    board = rows(con, """select rater_id, system_id, n_replies_scored, sum_total, max_total, score_0_10
                         from fct_model_run_scores where suite = 'sottana' and rubric_id = 'sottana_gec'
                           and rater_kind = 'human'""")
    raters = sorted({r["rater_id"] for r in raw})
    assert raters == ["prolific_57e2b", "prolific_5995e", "prolific_61102"]
    assert len(board) == 12 and all(b["n_replies_scored"] == 100 and b["max_total"] == 10 for b in board)
    unadjusted_orders_differ = 0
    for rater in raters:
        adjusted, unadjusted = {}, {}
        for r in (x for x in raw if x["rater_id"] == rater):
            lo, hi, direction = scale[r["criterion"]]
            assert r["n"] == 100
            m = float(r["mean_score"])
            adjusted[r["system_id"]] = adjusted.get(r["system_id"], 0.0) + (hi + lo - m if direction == "lower" else m)
            unadjusted[r["system_id"]] = unadjusted.get(r["system_id"], 0.0) + m
        mine = {b["system_id"]: b for b in board if b["rater_id"] == rater}
        # every reply is complete, so the mean total is exactly the sum of the adjusted criterion means
        for system, b in mine.items():
            assert b["sum_total"] / b["n_replies_scored"] == pytest.approx(adjusted[system], abs=1e-9)
        leaderboard = sorted(mine, key=lambda s: (-mine[s]["sum_total"], s))
        assert leaderboard == _order(adjusted)
        unadjusted_orders_differ += leaderboard != _order(unadjusted)
    # the direction matters on this data: scoring errors-left as points would reorder at least one rater's board
    assert unadjusted_orders_differ >= 1


def test_sottana_gec_lower_is_better_from_the_suite(con):
    got = rows(con, """select criterion, min(direction) as direction from fct_model_run_criterion_scores
                       where suite = 'sottana' and rubric_id = 'sottana_gec' group by criterion order by criterion""")
    assert [(g["criterion"], g["direction"]) for g in got] == [
        ("grammaticality", "lower"), ("overcorrection", "lower"), ("semantics", "higher")]
    # every other Sottana criterion, and every HANNA story criterion, is higher-is-better
    other = rows(con, """select distinct suite, higher_is_better from fct_system_rankings
                         where (suite = 'hanna' and rubric_id = 'hanna_story')
                            or (suite = 'sottana' and criterion not in ('grammaticality', 'overcorrection'))""")
    assert sorted((o["suite"], o["higher_is_better"]) for o in other) == [("hanna", True), ("sottana", True)]
