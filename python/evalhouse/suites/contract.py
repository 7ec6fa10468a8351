"""The suite contract: what a suite folder may hold, column by column, and the schema of its ``suite.yml``.

A suite is a folder ``suites/<name>/`` with a ``suite.yml`` (title, licence, rubrics, decision rules) and data
files named for the shared data model's tables: ``items``, ``responses``, ``response_labels``, ``gold``,
``ratings`` and ``comparisons``, each as ``<table>.csv``, ``<table>.jsonl`` or ``<table>.parquet``, or as a folder
``<table>/`` of such files (one per import). Any subset may be present; a suite whose ``suite.yml`` names a
``pack_dir`` of GRADE packs has its tables converted from them instead (evalhouse.grade.packs).
``suites/README.md`` is the user's guide; this module is the single definition that ``suite check``, ``suite init``,
the landing step and the README's column tables are generated from.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Column", "Table", "TABLES", "TABLE_ORDER", "SUITE_NAME", "RATER_KINDS", "GOLD_KINDS",
           "FACT_KINDS", "DIRECTIONS", "SUITE_SCHEMA", "TYPE_PATTERNS", "FORMATS", "RUBRIC_TABLES"]

SUITE_NAME = re.compile(r"^[a-z][a-z0-9_]{0,62}$")
RATER_KINDS = ("human", "judge", "program", "metric", "adjudicator")
GOLD_KINDS = ("language", "label", "required_phrase", "forbidden_phrase", "numeric_fact", "string_fact",
              "span_list_fact")
# Gold kinds scored by answer rules (evalhouse.rules; suite.yml `answer_rules` maps each to its rules).
FACT_KINDS = ("numeric_fact", "string_fact", "span_list_fact")
DIRECTIONS = ("higher", "lower")
FORMATS = (".csv", ".jsonl", ".parquet")

# Text forms a value of each type must match (checked with Great Expectations on CSV / JSONL text).
TYPE_PATTERNS = {
    "integer": r"^\s*[+-]?[0-9]+\s*$",
    "decimal": r"^\s*[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*$",
    "boolean": r"^\s*(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)\s*$",
    "date": r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}\s*$",
    "timestamp": (r"^\s*[0-9]{4}-[0-9]{2}-[0-9]{2}(?:[ T][0-9]{2}:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]{1,9})?)?)?"
                  r"(?:Z|[+-][0-9]{2}:?[0-9]{2})?\s*$"),
}


@dataclass(frozen=True)
class Column:
    """One column of a contract table.

    type: text | integer | decimal | boolean | timestamp | json (a JSON object, kept as text).
    required: the column must be present and non-empty in every row (unless ``default`` fills it).
    allowed: the closed set of values, when there is one.
    keeps_empty: free text whose empty string is a value (an empty reply) distinct from missing (NULL, not
    recorded); kept as '' from Parquet and JSONL files (a CSV cannot tell the two apart: empty is missing).
    """
    name: str
    type: str = "text"
    required: bool = False
    description: str = ""
    allowed: tuple[str, ...] = ()
    keeps_empty: bool = False


@dataclass(frozen=True)
class Table:
    name: str
    grain: str
    key: tuple[str, ...]
    columns: tuple[Column, ...]
    references: tuple[tuple[str, str], ...] = field(default=())  # (column, "table.column")

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.columns]


_PROVENANCE = (
    Column("source_tool", description="Tool whose log the row was imported from (promptfoo, inspect, lm-eval, ...)."),
    Column("source_tool_version", description="That tool's version as the log states it."),
    Column("source_log", description="File the row was imported from (path as given to the importer)."),
    Column("source_sha256", description="SHA-256 of that file."),
    Column("eval_id", description="The tool's own id of the evaluation / run."),
    Column("task_name", description="The tool's task name."),
    Column("imported_at", "timestamp", description="When the row was imported (UTC)."),
)

_ITEMS = Table(
    "items", "one test case", ("item_id",),
    (
        Column("item_id", required=True, description="Id of the test case, unique within the suite."),
        Column("input_text", keeps_empty=True,
               description="What the system was given (prompt, ticket, question)."),
        Column("reference_text", keeps_empty=True,
               description="A reference answer or answer-key summary shown to raters."),
        Column("task", description="Task or sub-set the item belongs to (NULL when the suite has none)."),
        Column("language", description="Language of the item (BCP 47 code, e.g. en, fr)."),
        Column("category", description="Free category for slicing results."),
        Column("metadata", "json", description="Anything else, as one JSON object."),
        *_PROVENANCE,
    ),
)

_RESPONSES = Table(
    "responses", "one output of one system on one item (x repetition)", ("response_id",),
    (
        Column("response_id", description="Id of the response; default <suite>:<system_id>:<item_id>:<repetition>."),
        Column("item_id", required=True, description="The item answered (items.item_id)."),
        Column("system_id", required=True, description="The model run / system that produced the output."),
        Column("repetition", "integer", description="1-based repetition (epoch, sample); default 1."),
        Column("response_text", keeps_empty=True, description="The reply as shown to raters."),
        Column("raw_output", keeps_empty=True,
               description="The system's raw output, byte-exact (NULL when not recorded)."),
        Column("is_reference_system", "boolean", description="true for a human-written reference; default false."),
        Column("input_tokens", "integer", description="Prompt tokens of the call."),
        Column("output_tokens", "integer", description="Completion tokens of the call."),
        Column("total_tokens", "integer", description="Total tokens (input + output when not stated)."),
        Column("latency_ms", "decimal", description="Wall time of the call in milliseconds."),
        Column("ttft_ms", "decimal", description="Time to first token in milliseconds."),
        Column("cost", "decimal", description="Cost of the call in cost_currency."),
        Column("cost_currency", description="Currency of cost (ISO 4217, e.g. USD)."),
        Column("run_label", description="Label of the import / run this response belongs to."),
        Column("metadata", "json", description="Generation settings and anything else, as one JSON object."),
        *_PROVENANCE,
    ),
    references=(("item_id", "items.item_id"),),
)

_RESPONSE_LABELS = Table(
    "response_labels", "one label a response reported", ("response_id", "label_name"),
    (
        Column("response_id", required=True, description="The response (responses.response_id)."),
        Column("label_name", required=True, description="Name of the label (e.g. category, needs_human)."),
        Column("label_value", keeps_empty=True, description="The value the response reported (compared lower-cased)."),
    ),
    references=(("response_id", "responses.response_id"),),
)

_GOLD = Table(
    "gold", "one gold entry of one item", ("item_id", "gold_kind", "gold_key"),
    (
        Column("item_id", required=True, description="The item (items.item_id)."),
        Column("gold_kind", required=True, allowed=GOLD_KINDS, description="What kind of gold entry this is."),
        Column("gold_key", required=True, description="Key within the kind (label name, phrase, fact name)."),
        Column("gold_value", keeps_empty=True, description="Expected value (label value, phrase, number or string)."),
        Column("abs_tol", "decimal", description="Absolute tolerance of a numeric fact."),
        Column("rel_tol", "decimal", description="Relative tolerance of a numeric fact (0.01 = 1 %)."),
        Column("metadata", "json", description="What an answer rule needs beyond the value (e.g. TAT-QA "
               "answer_type, scale, the answer's exact JSON), as one JSON object."),
    ),
    references=(("item_id", "items.item_id"),),
)

_RATINGS = Table(
    "ratings", "one score of one criterion by one rater", (),
    (
        Column("response_id", description="The response rated; or give item_id + system_id (+ repetition)."),
        Column("item_id", description="With system_id: names the response when response_id is absent."),
        Column("system_id", description="With item_id: names the response when response_id is absent."),
        Column("repetition", "integer", description="With item_id and system_id; default 1."),
        Column("rater_id", required=True, description="Who rated (a person, judge:<model>, a program)."),
        Column("rater_kind", allowed=RATER_KINDS, description="human | judge | program | metric | adjudicator; "
               "default human; one kind per rater in the suite."),
        Column("criterion", required=True, description="A criterion of the rubric."),
        Column("score", "decimal", required=True, description="A level of the criterion's scale (a person's score "
               "must be one); a judge, program or metric score is kept as recorded, and one that is not a whole "
               "level within the scale is flagged (int_ratings.score_problem) and left out by default."),
        Column("reason", keeps_empty=True, description="The rater's one-line reason."),
        Column("rubric_id", description="The rubric; default the suite's only rubric."),
        Column("rubric_version", "integer", description="The rubric version; default its first version "
               "(required when the rubric has several)."),
        Column("is_blind", "boolean", description="Rated blind (no model names shown)."),
        Column("rated_at", "timestamp", description="When the score was given (UTC)."),
        Column("judge_model", description="The judge model, for rater_kind judge."),
        Column("reported_total", "integer", description="The rater's own total, kept for audit only."),
        Column("reported_ready", "boolean", description="The rater's own ready / pass decision, kept for audit only."),
        Column("metadata", "json", description="Anything else, as one JSON object."),
        *_PROVENANCE,
    ),
    references=(("response_id", "responses.response_id"),),
)

_COMPARISONS = Table(
    "comparisons", "one pairwise preference between two responses to one item by one rater", (),
    (
        Column("item_id", required=True, description="The item both responses answer."),
        Column("response_id_a", required=True, description="Response A (responses.response_id)."),
        Column("response_id_b", required=True, description="Response B (responses.response_id)."),
        Column("rater_id", required=True, description="Who compared."),
        Column("rater_kind", allowed=RATER_KINDS, description="human | judge | program; default human."),
        Column("shown_first", allowed=("a", "b"), description="Which response was shown in the first slot."),
        Column("preference", "decimal", description="P(B is better than A) in [0, 1]: 0 A wins, 0.5 tie, 1 B wins."),
        Column("preference_label", allowed=("a", "b", "tie"), description="The choice as a label."),
        Column("reason", keeps_empty=True, description="The rater's reason."),
        Column("rated_at", "timestamp", description="When the comparison was made (UTC)."),
        Column("judge_model", description="The judge model, for rater_kind judge."),
        Column("metadata", "json", description="Anything else, as one JSON object."),
        *_PROVENANCE,
    ),
    references=(("item_id", "items.item_id"), ("response_id_a", "responses.response_id"),
                ("response_id_b", "responses.response_id")),
)

TABLES: dict[str, Table] = {t.name: t for t in (_ITEMS, _RESPONSES, _RESPONSE_LABELS, _GOLD, _RATINGS, _COMPARISONS)}
TABLE_ORDER = list(TABLES)

# Tables the landing step derives from suite.yml (not data files).
RUBRIC_TABLES = ("suites", "rubric_levels", "rubric_versions", "rubric_rules", "suite_systems", "answer_rules")

_LEVEL = {
    "type": "object", "additionalProperties": False, "required": ["level", "anchor"],
    "properties": {"level": {"type": "integer"}, "anchor": {"type": "string", "minLength": 1},
                   "example": {"type": "string"}},
}
_CRITERION = {
    "type": "object", "additionalProperties": False,
    "required": ["criterion", "min_score", "max_score", "direction", "levels"],
    "properties": {
        "criterion": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        "order": {"type": "integer", "minimum": 1},
        "description": {"type": "string"},
        "min_score": {"type": "integer"}, "max_score": {"type": "integer"},
        "direction": {"enum": list(DIRECTIONS)},
        "levels": {"type": "array", "minItems": 1, "items": _LEVEL},
    },
}
_VERSION = {
    "type": "object", "additionalProperties": False, "required": ["version"],
    "properties": {
        "version": {"type": "integer", "minimum": 1},
        "effective_from": {"type": "string", "format": "date"},  # YYYY-MM-DD, a day that exists
        "change_note": {"type": "string"},
        "criteria": {"type": "array", "items": _CRITERION},
    },
}
_RUBRIC = {
    "type": "object", "additionalProperties": False, "required": ["rubric_id", "criteria", "versions"],
    "properties": {
        "rubric_id": {"type": "string", "pattern": r"^[a-z][a-z0-9_]*$"},
        "title": {"type": "string"},
        "criteria": {"type": "array", "minItems": 1, "items": _CRITERION},
        "versions": {"type": "array", "minItems": 1, "items": _VERSION},
        "decision_rule": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "ready_gate": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "content_verdict": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            },
        },
        "composite_weights": {"type": "object", "additionalProperties": {"type": "number", "minimum": 0}},
    },
}
SUITE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object", "additionalProperties": False, "required": ["title"],
    "properties": {
        "suite": {"type": "string", "pattern": SUITE_NAME.pattern},
        "title": {"type": "string", "minLength": 1},
        "description": {"type": "string"},
        "licence": {"type": "string"},
        "attribution": {"type": "string"},
        "first_filter": {"type": "boolean"},
        "grounding": {"type": "boolean"},
        # A folder of GRADE packs (relative to the suite folder; data/grade/PACK_FORMAT.md): the suite's tables are
        # converted from the packs (evalhouse.grade.packs) instead of read from data files.
        "pack_dir": {"type": "string", "minLength": 1},
        # gold kind -> the answer rules that score it (names in evalhouse.rules.RULES; checked by suite check)
        "answer_rules": {
            "type": "object",
            "additionalProperties": {"type": "array", "minItems": 1, "items": {"type": "string"}},
        },
        "rubrics": {"type": "array", "items": _RUBRIC},
        # Pairwise comparisons: the system every other is compared with (win rates against a baseline), and the
        # model family of systems and judges (self-preference: a judge preferring answers of its own family).
        "baseline": {"type": "string", "minLength": 1},
        "families": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1}},
    },
}
