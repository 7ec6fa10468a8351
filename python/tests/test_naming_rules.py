"""One name, one type, one scale per concept across every mart (README "Glossary").

Checked twice: on the column lists in the models' YAML (no warehouse needed) and on the built warehouse's
information_schema (names and types of every fct_, dim_ and int_ relation). ``naming_problems`` is the rule; the
last test shows it catches each kind of breach.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml  # PyYAML ships with dbt-core

from evalhouse import paths

PROJECT = Path(__file__).resolve().parents[2]

# A run (a model, a configuration, a prompt variant) is system_id everywhere; its n-th reply to an item is its
# repetition (never `run`, which would read as the run itself).
RUN_ALIASES = {"model", "model_run", "run_id", "model_id", "run"}
# A bare `reason` is a person's (or judge's) comment on a rating, never the explanation of a NULL.
RATER_COMMENT_RELATIONS = {"fct_ratings", "fct_criterion_scores", "fct_larkfield_ranking_practice", "int_ratings",
                           "int_effective_scores", "int_comparisons"}
# column -> its one type in every relation that has it
TYPES = {
    "system_id": "VARCHAR",
    "rubric_version": "INTEGER",
    "source_row": "INTEGER",
    "exact_agreement": "DOUBLE",
    "mean_score": "DECIMAL(18,4)",
    "composite": "DECIMAL(18,12)",
    "grounding_accuracy": "DECIMAL(18,12)",
    "insight_quality": "DECIMAL(18,12)",
    "evidence_linkage": "DECIMAL(18,12)",
    "calibration_limitation_handling": "DECIMAL(18,12)",
    "consistency": "DECIMAL(18,12)",
    "structure_usability": "DECIMAL(18,12)",
}


def naming_problems(columns: list[tuple[str, str, str | None]]) -> list[str]:
    """Breaches of the glossary in ``columns`` = [(relation, column, data type or None when unknown)]."""
    problems = []
    for relation, column, data_type in columns:
        where = f"{relation}.{column}"
        if column in RUN_ALIASES:
            problems.append(f"{where}: a run is system_id, its n-th reply a repetition")
        if column.endswith("_null_reason"):
            problems.append(f"{where}: a NULL's explanation is <column>_reason, not *_null_reason")
        if column == "reason" and relation not in RATER_COMMENT_RELATIONS:
            problems.append(f"{where}: a bare reason is a rater's comment; explain a NULL with <column>_reason")
        if data_type is None:
            continue
        if column.endswith("_reason") and data_type != "VARCHAR":
            problems.append(f"{where}: a reason is VARCHAR, not {data_type}")
        if column in TYPES and data_type != TYPES[column]:
            problems.append(f"{where}: {column} is {TYPES[column]}, not {data_type}")
        if re.search(r"_0_10$", column) and data_type != "DECIMAL(18,2)":
            problems.append(f"{where}: a score on the 0-10 scale is DECIMAL(18,2), not {data_type}")
    return problems


def _yaml_columns() -> list[tuple[str, str, None]]:
    out = []
    for path in sorted((PROJECT / "models").glob("**/*.yml")):
        if "staging" in path.parts:  # staging keeps the input files' own names (a GRADE pack's `model`)
            continue
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for model in doc.get("models") or []:
            for col in model.get("columns") or []:
                out.append((model["name"], col["name"], None))
    return out


def test_yaml_columns_follow_the_glossary():
    columns = _yaml_columns()
    assert len(columns) > 500  # every mart column is described
    assert naming_problems(columns) == []


@pytest.mark.skipif(not paths.published_db().is_file(), reason="run `make build` first")
def test_warehouse_columns_follow_the_glossary(warehouse):
    columns = warehouse.execute("""
        select table_name, column_name, data_type from information_schema.columns
        where table_schema = 'main' and regexp_matches(table_name, '^(fct|dim|int)_')
          and not contains(table_name, '__dbt_tmp')""").fetchall()
    relations = {r[0] for r in columns}
    assert {"fct_larkfield_model_runs", "fct_grade__overall_scores", "fct_pairwise_ratings"} <= relations
    assert naming_problems(columns) == []


def test_the_rule_catches_each_breach():
    bad = [("fct_a", "model_run", "VARCHAR"), ("fct_a", "run_id", "VARCHAR"), ("fct_a", "model", "VARCHAR"),
           ("fct_a", "kappa_null_reason", "VARCHAR"), ("fct_a", "reason", "VARCHAR"),
           ("fct_a", "rubric_version", "BIGINT"), ("fct_a", "score_0_10", "DOUBLE"),
           ("fct_a", "rank_reason", "INTEGER"), ("fct_a", "composite", "DOUBLE")]
    problems = naming_problems(bad)
    assert len(problems) == len(bad), problems
    assert naming_problems([("fct_ratings", "reason", "VARCHAR"), ("fct_a", "system_id", "VARCHAR"),
                            ("fct_a", "rubric_version", "INTEGER"), ("fct_a", "score_0_10", "DECIMAL(18,2)"),
                            ("fct_a", "kappa_reason", "VARCHAR")]) == []
    assert naming_problems([("fct_a", "model_run", None)]) == [
        "fct_a.model_run: a run is system_id, its n-th reply a repetition"]
    assert len(naming_problems([("fct_a", "run", "INTEGER")])) == 1
