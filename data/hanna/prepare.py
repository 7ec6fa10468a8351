"""Rebuild data/hanna/*.parquet from the HANNA release (dev-time only; the build reads the Parquet files).

Usage: python data/hanna/prepare.py /path/to/hanna   (the folder holding hanna_metric_scores_llm.csv, user_study.csv)

hanna_scores.parquet      one row per story x score column kept: the 3 human rater positions (`Human i XX`) and the
                          per-criterion LLM-judge columns (`<LLM> XX p`); values exactly as in the release (judge
                          values are means of sampled answers, floats). Story id = 96 * system_row + prompt_index.
hanna_metric_scores.parquet  one row per story x automatic metric: the 72 automatic-metric columns (BLEU, ROUGE-*,
                          METEOR, chrF, CIDEr, BERTScore, MoverScore, BaryScore, S3, SummaQA, InfoLM, BARTScore, SUPERT,
                          BLANC, coverage / density / novelty / repetition ...), values exactly as released; same keys
                          as hanna_scores.parquet, source_column = the metric's column name (byte-exact).
hanna_user_study.parquet  user_study.csv in long form: one row per data row x flag column, with source_row (1-based
                          data row), unit_index (consecutive triples = one explanation), rater_position (1..3 within
                          the triple), story_id, explanation, source_column (the flag's column name, byte-exact) and
                          value (0/1 as released).
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


def metric_columns(columns) -> list[str]:
    """The automatic-metric columns: every column that is not the key, a criterion mean, a human rating
    (`Human i XX`, `Human Avg i XX`) or an LLM judge column (`<LLM> XX p`, `<LLM> AVG p`). 72 in the release."""
    return [c for c in columns if c != "Model" and c not in CRITERIA and not HUMAN.match(c)
            and not c.startswith("Human Avg ") and not JUDGE.match(c) and not JUDGE_AVG.match(c)]


def main(src: Path, out: Path) -> None:
    wide = pd.read_csv(src / "hanna_metric_scores_llm.csv", encoding="utf-8")
    rows = []
    for system_row, rec in wide.iterrows():
        for col in wide.columns:
            if not (HUMAN.match(col) or JUDGE.match(col)):
                continue
            values = json.loads(rec[col])
            if len(values) != 96:
                raise ValueError(f"{col} of {rec['Model']}: {len(values)} values, expected 96")
            for k, v in enumerate(values):
                rows.append((rec["Model"], int(system_row), k, 96 * int(system_row) + k, col, float(v)))
    long = pd.DataFrame(rows, columns=["system", "system_row", "prompt_index", "story_id", "source_column", "score"])
    long.to_parquet(out / "hanna_scores.parquet", index=False, compression="zstd")

    metrics = metric_columns(wide.columns)
    if len(metrics) != 72:
        raise ValueError(f"hanna_metric_scores_llm.csv: {len(metrics)} automatic-metric columns, expected 72")
    mrows = []
    for system_row, rec in wide.iterrows():
        for col in metrics:
            values = json.loads(rec[col])
            if len(values) != 96:
                raise ValueError(f"{col} of {rec['Model']}: {len(values)} values, expected 96")
            for k, v in enumerate(values):
                mrows.append((rec["Model"], int(system_row), k, 96 * int(system_row) + k, col, float(v)))
    mlong = pd.DataFrame(mrows, columns=["system", "system_row", "prompt_index", "story_id", "source_column", "score"])
    mlong.to_parquet(out / "hanna_metric_scores.parquet", index=False, compression="zstd")

    us = pd.read_csv(src / "user_study.csv", encoding="utf-8")
    us.insert(0, "source_row", range(1, len(us) + 1))
    us.insert(1, "unit_index", [i // 3 + 1 for i in range(len(us))])
    us.insert(2, "rater_position", [i % 3 + 1 for i in range(len(us))])
    triples = us.groupby("unit_index").agg(n_story=("Input.story_id", "nunique"), n_expl=("Input.explanation", "nunique"))
    if (triples.n_story != 1).any() or (triples.n_expl != 1).any():
        raise ValueError("user_study.csv: a triple of rows does not share one story and explanation")
    flags = [c for c in us.columns if c.startswith("Answer.")]
    long_us = us.rename(columns={"Input.story_id": "story_id", "Input.explanation": "explanation"}).melt(
        id_vars=["source_row", "unit_index", "rater_position", "story_id", "explanation"], value_vars=flags,
        var_name="source_column", value_name="value")
    long_us = long_us.sort_values(["source_row", "source_column"], kind="stable").reset_index(drop=True)
    long_us.to_parquet(out / "hanna_user_study.parquet", index=False, compression="zstd")
    print(f"hanna_scores: {len(long)} rows; metric scores: {len(mlong)} rows; user_study: {len(us)} rows")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(__file__).resolve().parent)
