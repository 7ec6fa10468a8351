"""Rebuild the data files of suite hanna from the HANNA release (dev-time only; `make build` reads the files).

Usage: python suites/hanna/prepare.py /path/to/hanna   (the folder holding hanna_metric_scores_llm.csv and
user_study.csv; SOURCE.md names the commit)

Writes, beside this script (values exactly as released):

items.parquet      the 96 WritingPrompts prompts (hanna-prompt-<k>, task story_generation) and the 100 LLM
                   explanations of the user study (hanna-explanation-<n>, task explanation_rating).
responses.parquet  1,056 stories (hanna-story-<96 * system_row + k>, system = the release's `Model`; `Human` is the
                   reference system; the story texts are not in the release) and the 100 explanations (system
                   llm_explainer; the release does not say which LLM wrote them).
ratings.parquet    one row per score: the 18 `Human i XX` columns (rater human_position_i, 1-5), the 120 `<LLM> XX p`
                   judge columns (rater <LLM>/eval_prompt_<p>, rater_kind judge, judge_model <LLM>; means of sampled
                   answers, failure codes -1 / 0 averaged in: kept as released, int_ratings flags them) and the six
                   user-study flags (rater mturk_position_<1..3>, 0/1, rubric hanna_explanation_flags). metadata
                   names the release file, column and data row of each value.
metrics/metric_scores.parquet
                   the 72 automatic-metric columns (BLEU, ROUGE-*, BERTScore, BARTScore ...): one row per story x
                   metric (response_id, metric = the column name byte-exact, score = the value as released). Not
                   ratings on the rubric's scale: the `hanna` dbt source, read only by stg_hanna__metric_scores.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pandas as pd

HUMAN = re.compile(r"^Human ([123]) (RE|CH|EM|SU|EG|CX)$")
JUDGE = re.compile(r"^(Beluga-13B|OrcaPlatypus|Mistral-7B|Llama-13B|ChatGPT) (RE|CH|EM|SU|EG|CX) ([1-4])$")
JUDGE_AVG = re.compile(r"^(Beluga-13B|OrcaPlatypus|Mistral-7B|Llama-13B|ChatGPT) AVG ([1-4])$")
CRITERIA = ("Relevance", "Coherence", "Empathy", "Surprise", "Engagement", "Complexity")
# The two-letter criterion codes of the column names (Chhun et al. 2022, section 3).
CODES = {"RE": "relevance", "CH": "coherence", "EM": "empathy", "SU": "surprise", "EG": "engagement",
         "CX": "complexity"}
# The user-study answer columns (user_study.csv, byte-exact) -> criteria of rubric hanna_explanation_flags.
FLAGS = {"Answer.a-1-guidelines.1": "follows_guidelines", "Answer.a-2-syntax.1": "syntax_issue",
         "Answer.a-3-superfluous.1": "superfluous", "Answer.a-4-incorrectness.1": "incorrectness",
         "Answer.a-5-unsubstantiated.1": "unsubstantiated", "Answer.a-6-incoherence.1": "incoherence"}
SCORES_FILE = "hanna_metric_scores_llm.csv"
STUDY_FILE = "user_study.csv"


def metric_columns(columns) -> list[str]:
    """The automatic-metric columns: every column that is not the key, a criterion mean, a human rating
    (`Human i XX`, `Human Avg i XX`) or an LLM judge column (`<LLM> XX p`, `<LLM> AVG p`). 72 in the release."""
    return [c for c in columns if c != "Model" and c not in CRITERIA and not HUMAN.match(c)
            and not c.startswith("Human Avg ") and not JUDGE.match(c) and not JUDGE_AVG.match(c)]


def _values(rec, col: str) -> list[float]:
    values = json.loads(rec[col])
    if len(values) != 96:
        raise ValueError(f"{SCORES_FILE}: {col} of {rec['Model']}: {len(values)} values, expected 96")
    return [float(v) for v in values]


def _story_ratings(wide: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for system_row, rec in wide.iterrows():
        for col in wide.columns:
            human, judge = HUMAN.match(col), JUDGE.match(col)
            if not (human or judge):
                continue
            if human:
                rater_id, kind, model, code = f"human_position_{human.group(1)}", "human", None, human.group(2)
            else:
                llm, code, prompt = judge.groups()
                rater_id, kind, model = f"{llm}/eval_prompt_{prompt}", "judge", llm
            for k, v in enumerate(_values(rec, col)):
                story_id = 96 * int(system_row) + k
                rows.append({"story_id": story_id, "column": col, "response_id": f"hanna-story-{story_id}",
                             "rater_id": rater_id, "rater_kind": kind, "criterion": CODES[code], "score": repr(v),
                             "rubric_id": "hanna_story", "rubric_version": 1, "judge_model": model,
                             "metadata": json.dumps({"release_file": SCORES_FILE, "release_column": col,
                                                     "release_row": int(system_row) + 1, "list_index": k})})
    return pd.DataFrame(rows).sort_values(["story_id", "column"], kind="stable").drop(columns=["story_id", "column"])


def main(src: Path, out: Path) -> None:
    wide = pd.read_csv(src / SCORES_FILE, encoding="utf-8")
    systems = [(int(i), m) for i, m in enumerate(wide["Model"])]
    items = [{"item_id": f"hanna-prompt-{k}", "task": "story_generation", "language": "en"} for k in range(96)]
    responses = [{"response_id": f"hanna-story-{96 * i + k}", "item_id": f"hanna-prompt-{k}", "system_id": m,
                  "repetition": 1, "is_reference_system": m == "Human"} for i, m in systems for k in range(96)]
    ratings = [_story_ratings(wide)]

    us = pd.read_csv(src / STUDY_FILE, encoding="utf-8")
    if set(c for c in us.columns if c.startswith("Answer.")) != set(FLAGS):
        raise ValueError(f"{STUDY_FILE}: answer columns differ from {sorted(FLAGS)}")
    flag_rows = []
    for n in range(len(us) // 3):
        triple = us.iloc[3 * n: 3 * n + 3]
        if triple["Input.story_id"].nunique() != 1 or triple["Input.explanation"].nunique() != 1:
            raise ValueError(f"{STUDY_FILE}: rows {3 * n + 1}-{3 * n + 3} do not share one story and explanation")
        unit = f"hanna-explanation-{n + 1}"
        story_id, explanation = triple["Input.story_id"].iloc[0], triple["Input.explanation"].iloc[0]
        items.append({"item_id": unit, "task": "explanation_rating", "language": "en",
                      "input_text": f"LLM explanation of its rating of HANNA story {story_id}"})
        responses.append({"response_id": unit, "item_id": unit, "system_id": "llm_explainer", "repetition": 1,
                          "response_text": explanation, "raw_output": explanation, "is_reference_system": False})
        for position, (row, rec) in enumerate(triple.iterrows(), start=1):
            for col in sorted(FLAGS):
                flag_rows.append({"response_id": unit, "rater_id": f"mturk_position_{position}", "rater_kind": "human",
                                  "criterion": FLAGS[col], "score": str(int(rec[col])),
                                  "rubric_id": "hanna_explanation_flags", "rubric_version": 1,
                                  "metadata": json.dumps({"release_file": STUDY_FILE, "release_column": col,
                                                          "release_row": int(row) + 1})})
    ratings.append(pd.DataFrame(flag_rows))

    pd.DataFrame(items).to_parquet(out / "items.parquet", index=False, compression="zstd")
    pd.DataFrame(responses).to_parquet(out / "responses.parquet", index=False, compression="zstd")
    rated = pd.concat(ratings, ignore_index=True)
    rated.to_parquet(out / "ratings.parquet", index=False, compression="zstd")

    metrics = metric_columns(wide.columns)
    if len(metrics) != 72:
        raise ValueError(f"{SCORES_FILE}: {len(metrics)} automatic-metric columns, expected 72")
    mrows = [(f"hanna-story-{96 * int(i) + k}", col, v)
             for i, rec in wide.iterrows() for col in metrics for k, v in enumerate(_values(rec, col))]
    mlong = pd.DataFrame(mrows, columns=["response_id", "metric", "score"])
    (out / "metrics").mkdir(exist_ok=True)
    mlong.to_parquet(out / "metrics" / "metric_scores.parquet", index=False, compression="zstd")
    print(f"items: {len(items)}; responses: {len(responses)}; ratings: {len(rated)}; metric scores: {len(mlong)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(__file__).resolve().parent)
