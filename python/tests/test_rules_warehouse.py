"""Answer rules and the judge-failure policy on the full shipped data, against the published figures.

Published figures (looked up in the sources, never used to tune a rule):
- TAT-QA, Program-of-Thoughts (Chen et al., TMLR 2023): the repository README gives "EM Score: 0.689" for the
  few-shot greedy PoT run on the 1,668-question dev set (Table 2 rounds it to 69.0). The authors scored with
  compute_score_tatqa.py + eval_tatqa/tatqa_metric.py; running that script on the five shipped files gives EM
  0.6899 / 0.6143 / 0.5501 / 0.4253 / 0.3785 (PoT / CoT / direct Codex, CoT / direct GPT-3), which our
  tatqa_official_em reproduces item by item. The PoT copy reads the LAST number of a string, the official metric
  the first; on these files the two give identical scores.
- GSM8K, Faithful-CoT (Lyu et al. 2023): output_dir/performance_summary.csv (code-davinci-002 row) and the README
  table (Codex 72.2, ChatGPT 75.8, GPT-4 95.0 for Faithful CoT = NL+SL).
- HANNA (Chhun et al., TACL 2024): the Kendall heat maps of the authors' notebook data_visualization.ipynb (cells
  drawn as round(100 |tau|), stories of the 10 generated systems, the "Human" system left out; "mixed1" and
  "mixed2" figures), transcribed below.
"""
from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest


def _acc(con, suite, run, rule, kind="all"):
    return con.execute("""select n_items, n_correct, accuracy_pct from fct_grade__grounding_run_accuracy
                          where suite = ? and system_id = ? and answer_rule = ? and fact_kind = ?""",
                       [suite, run, rule, kind]).fetchone()


# run -> (published EM, source; authors' script on the shipped file: correct of 1,667)
TATQA = {
    "codex_pot": (0.689, "README 'EM Score: 0.689' (Table 2: 69.0)", 1150),
    "codex_cot": (None, "authors' compute_score_tatqa.py on the shipped file", 1024),
    "codex_direct": (None, "authors' compute_score_tatqa.py on the shipped file", 917),
    "gpt3_cot": (None, "authors' compute_score_tatqa.py on the shipped file", 709),
    "gpt3_direct": (None, "authors' compute_score_tatqa.py on the shipped file", 631),
}


@pytest.mark.parametrize("run", sorted(TATQA))
def test_tatqa_official_em_against_published(warehouse, run):
    published, _source, authors_script = TATQA[run]
    n, correct, pct = _acc(warehouse, "grade_tatqa", run, "tatqa_official_em")
    assert n == 1667  # every dev question in the files, multi-span included
    assert correct == authors_script
    if published is not None:
        # README truncates to 3 decimals: 1150 / 1667 = 0.68986; Table 2 rounds to 69.0 (tolerance: the rounding)
        assert abs(correct / n - published) < 0.001
        assert round(100 * correct / n, 1) == 69.0


def test_tatqa_f1_and_house_rows_side_by_side(warehouse):
    assert _acc(warehouse, "grade_tatqa", "codex_pot", "house_exact") == (1450, 533, Decimal("36.76"))  # unchanged
    assert _acc(warehouse, "grade_tatqa", "codex_pot", "house_tolerance") == (1450, 808, Decimal("55.72"))
    f1 = warehouse.execute("""select mean_score_pct from fct_grade__grounding_run_accuracy where suite = 'grade_tatqa'
                              and system_id = 'codex_pot' and answer_rule = 'tatqa_official_f1' and fact_kind = 'all'""").fetchone()[0]
    assert f1 == Decimal("75.90")  # authors' script: F1 0.7590
    assert _acc(warehouse, "grade_tatqa", "codex_pot", "tatqa_official_em", "span_list") == (217, 173, Decimal("79.72"))


# config -> (published %, where); ours must round to it exactly unless a reason is given
GSM8K_PUBLISHED = {
    "code002_standard": (19.6, "performance_summary.csv"),
    "code002_COT": (63.3, "performance_summary.csv"),
    "code002_noNL": (72.8, "performance_summary.csv"),
    "code002_NL+SL": (72.3, "performance_summary.csv"),
    "gpt-3.5-turbo_NL+SL": (75.8, "README"),
    "gpt4_NL+SL": (95.0, "README"),
}


@pytest.mark.parametrize("config", sorted(GSM8K_PUBLISHED))
def test_faithful_cot_gsm8k_against_published(warehouse, config):
    published, _where = GSM8K_PUBLISHED[config]
    n, correct, _pct = _acc(warehouse, "grade_gsm8k", config, "faithful_cot_gsm8k")
    assert n == 1319
    assert round(100 * correct / n, 1) == published  # the authors print round(100 * c / n, 1)


def test_faithful_cot_readme_codex_figure_is_the_public_release_rule(warehouse):
    # The README's Codex 72.2 (NL+SL) is not the 72.3 of performance_summary.csv: the public-release version of
    # extract_pred_answer (commit 1d40431) read the WHOLE answer with float() instead of the first number; under it
    # one more answer is invalid (952 / 1319 = 72.18 -> 72.2). The current rule gives 953 -> 72.25 -> 72.3.
    n, correct, _ = _acc(warehouse, "grade_gsm8k", "code002_NL+SL", "faithful_cot_gsm8k")
    assert (correct, round(100 * correct / n, 1)) == (953, 72.3)
    assert round(100 * (correct - 1) / n, 1) == 72.2


def test_faithful_cot_integer_answers_keep_their_sign(warehouse):
    # JSON-integer program answers skip the absolute value (the authors' type(pred) == int branch): text003_NL+SL
    # has 8 negative integers whose absolute value is the gold; reading them as text would give 954, not 946.
    assert _acc(warehouse, "grade_gsm8k", "text003_NL+SL", "faithful_cot_gsm8k")[1] == 946
    assert _acc(warehouse, "grade_gsm8k", "gpt-3.5-turbo_NL+SL", "faithful_cot_gsm8k")[1] == 1000


def test_house_rule_rows_equal_fact_checks(warehouse):
    diff = warehouse.execute("""
        with c as (select suite, system_id, count(*) n, sum(passed_exact::int) e, sum(passed::int) t
                   from fct_grade__fact_checks group by all)
        select count(*) from c
        join fct_grade__grounding_run_accuracy a on a.suite = c.suite and a.system_id = c.system_id and a.fact_kind = 'all'
        where (a.answer_rule = 'house_exact' and (a.n_items <> c.n or a.n_correct <> c.e))
           or (a.answer_rule = 'house_tolerance' and (a.n_items <> c.n or a.n_correct <> c.t))""").fetchone()[0]
    assert diff == 0


def test_house_python_rules_agree_with_sql_on_every_shipped_fact(warehouse):
    from evalhouse.rules import apply_rule
    rows = warehouse.execute("""select g.gold_kind, g.gold_value, f.reply_text, g.abs_tol, g.rel_tol, f.passed_exact, f.passed
                                from fct_grade__fact_checks f join int_gold g using (suite, item_id)
                                where g.gold_key = f.fact_key and g.gold_kind in ('numeric_fact', 'string_fact')""").fetchall()
    assert len(rows) == 39326  # TAT-QA 5 x 1,450 + GSM8K 24 x 1,319 + GRADE pack facts 420
    for kind, gold, reply, a, r, exact, tol in rows:
        row = {"gold_kind": kind, "gold_value": gold, "reply_text": reply, "abs_tol": a, "rel_tol": r}
        assert apply_rule("house_exact", row).correct == exact, (gold, reply)
        assert apply_rule("house_tolerance", row).correct == tol, (gold, reply)


# ---- HANNA, TACL 2024 heat maps (authors' notebook), round(100 |tau|) -------------------------------------------
CRIT = ["relevance", "coherence", "empathy", "surprise", "engagement", "complexity"]
JUDGE_COLS = [f"{m}/eval_prompt_{p}" for m in ("Beluga-13B", "Llama-13B", "Mistral-7B", "ChatGPT") for p in (1, 2, 3, 4)]
METRIC_COLS = ["BARTScore-SH ΞΔ", "BERTScore F1 Ξε", "BLEU Ξ§", "ROUGE-1 Recall Ξ§", "chrF Ξ§", "BaryScore-W Ξε",
               "SUPERT-PS ¤ε", "BLANC-Tune-PS ¤Δ"]
# rows RE CH EM SU EG CX; "mixed2" (16 judge columns) and "mixed1" (Human + 8 metrics)
STORY_JUDGES = [[21, 24, 19, 21, 16, 16, 6, 11, 22, 17, 17, 23, 15, 14, 11, 11],
                [26, 27, 25, 23, 18, 21, 16, 13, 22, 22, 15, 17, 22, 22, 14, 21],
                [27, 27, 25, 19, 15, 15, 9, 11, 20, 22, 17, 13, 20, 17, 1, 12],
                [17, 19, 16, 17, 12, 15, 7, 7, 13, 12, 11, 12, 5, 8, 7, 9],
                [26, 26, 22, 17, 11, 14, 5, 7, 21, 21, 15, 15, 19, 19, 6, 15],
                [32, 32, 25, 25, 26, 28, 17, 18, 23, 25, 23, 22, 27, 21, 12, 25]]
SYSTEM_JUDGES = [[49, 78, 64, 82, 64, 69, 64, 73, 36, 42, 7, 47, 7, 4, 36, 33],
                 [78, 78, 69, 73, 87, 78, 56, 73, 60, 64, 33, 56, 73, 69, 69, 64],
                 [73, 69, 60, 64, 54, 47, 38, 60, 60, 64, 51, 64, 56, 51, 2, 33],
                 [73, 73, 64, 64, 56, 56, 49, 60, 51, 51, 56, 60, 7, 18, 45, 51],
                 [73, 82, 60, 69, 73, 73, 16, 73, 64, 56, 54, 64, 64, 58, 11, 60],
                 [72, 85, 72, 85, 54, 54, 48, 49, 63, 54, 63, 58, 72, 54, 67, 76]]
STORY_MIXED1 = [[49, 3, 13, 7, 11, 10, 12, 26, 7], [37, 3, 14, 11, 16, 17, 15, 3, 0], [49, 11, 17, 13, 17, 17, 17, 2, 2],
                [44, 4, 12, 11, 16, 17, 13, 3, 0], [50, 8, 19, 14, 19, 20, 19, 5, 2], [57, 8, 24, 19, 28, 29, 24, 6, 1]]
SYSTEM_MIXED1 = [[70, 51, 51, 56, 51, 60, 56, 11, 24], [62, 56, 56, 33, 38, 47, 51, 20, 16],
                 [77, 56, 73, 42, 47, 47, 69, 2, 2], [72, 56, 56, 42, 47, 56, 51, 20, 16],
                 [76, 56, 56, 33, 38, 47, 51, 20, 16], [80, 67, 49, 54, 58, 67, 45, 18, 4]]


def _hanna_cells(con, policy):
    got = con.execute("""select criterion, rater_id, level, kendall_tau_b from fct_judge_human_agreement
                         where suite = 'hanna' and rubric_id = 'hanna_story' and not reference_system_included
                           and judge_failure_policy = ?""", [policy]).fetchall()
    return {(c, r, lv): float(np.round(100 * abs(t))) for c, r, lv, t in got}


def _published(level):
    judges, mixed1 = (STORY_JUDGES, STORY_MIXED1) if level == "item" else (SYSTEM_JUDGES, SYSTEM_MIXED1)
    out = {}
    for i, c in enumerate(CRIT):
        out.update({(c, r, level): judges[i][j] for j, r in enumerate(JUDGE_COLS)})
        out.update({(c, r, level): mixed1[i][j + 1] for j, r in enumerate(METRIC_COLS)})
        out[(c, "Human", level)] = mixed1[i][0]
    return out


def _ours_human(cells, c, level):
    # the notebook's "Human" cell: mean of the three positions' rounded |100 tau| (each vs the mean of all 3), rounded
    return float(np.round(np.mean([cells[(c, f"human_position_{i}", level)] for i in (1, 2, 3)])))


def _system_means_tied(con, criterion, rater_id):
    """True when the human-mean or the rater's per-system means (10 generated systems) hold an exact tie, seen as
    equal values at 10 decimals: float summation order then decides whether Kendall's tau-b sees the tie."""
    df = con.execute("""select response_id, system_id, rater_id, rater_kind, score_value_as_recorded as v
                        from int_reliability_scores where suite = 'hanna' and rubric_id = 'hanna_story'
                          and not is_reference_system and criterion = ?""", [criterion]).df()
    human = df[df["rater_kind"] == "human"].groupby(["system_id", "response_id"])["v"].mean()
    hm = human.groupby("system_id").mean().round(10)
    rater = df[df["rater_id"] == rater_id].groupby("system_id")["v"].mean().round(10)
    return bool(hm.duplicated().any() or rater.duplicated().any())


def test_hanna_as_recorded_reproduces_the_tacl_heat_maps_story_level(warehouse):
    cells = _hanna_cells(warehouse, "as_recorded")
    published = _published("item")
    assert len(published) == 6 * (16 + 8 + 1)
    got = {k: (_ours_human(cells, k[0], "item") if k[1] == "Human" else cells[k]) for k in published}
    assert {k: v for k, v in got.items() if v != published[k]} == {}  # all 150 cells


def test_hanna_as_recorded_system_level_cells(warehouse):
    # 122 of the 150 system-level cells are equal. The other 28 are cells whose 10 per-system means hold an exact
    # tie (e.g. human Complexity: two pairs of systems at 2.409722 and 2.493056): the notebook's np.mean over the
    # release order breaks such a tie by float noise, our mean (another summation order) may keep it, so tau-b
    # differs by a few points (e.g. Beluga-13B 1 on Complexity: 72 published, 70 here). Not adjusted: a tie in
    # exact arithmetic is a tie.
    cells = _hanna_cells(warehouse, "as_recorded")
    published = _published("system")
    equal, tied = 0, []
    for key, want in published.items():
        c, r, lv = key
        ours = _ours_human(cells, c, lv) if r == "Human" else cells[key]
        if ours == want:
            equal += 1
        else:
            tied.append(key)
            assert r != "Human" and _system_means_tied(warehouse, c, r), (key, want, ours)
    assert (equal, len(tied)) == (122, 28)


def test_hanna_excluded_policy_differs_where_failure_codes_were_averaged_in(warehouse):
    excluded = _hanna_cells(warehouse, "excluded")
    published = _published("item")
    differ = [k for k, v in published.items() if k[1] in JUDGE_COLS and excluded[k] != v]
    # Mistral-7B's -1 / 0 codes: leaving them out moves its story-level relevance from 22 to 21
    assert ("relevance", "Mistral-7B/eval_prompt_1", "item") in differ
    sys_excl = _hanna_cells(warehouse, "excluded")[("relevance", "Llama-13B/eval_prompt_1", "system")]
    assert (sys_excl, _published("system")[("relevance", "Llama-13B/eval_prompt_1", "system")]) == (56.0, 64)


def test_hanna_metrics_are_raters_beside_the_judges(warehouse):
    n = warehouse.execute("""select count(distinct rater_id) from fct_judge_human_agreement
                             where suite = 'hanna' and rater_kind = 'metric'""").fetchone()[0]
    assert n == 72
    d = warehouse.execute("""select count(*) from fct_judge_diagnostics where suite = 'hanna' and rater_kind = 'metric'
                             and judge_failure_policy = 'excluded' and n_items = 1056""").fetchone()[0]
    assert d == 72 * 6
