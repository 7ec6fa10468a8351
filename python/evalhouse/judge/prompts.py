"""Judge prompts and strict verdict parsing.

Rubric mode asks for one JSON object scoring every criterion of the rubric version::

    {"scores": {"<criterion>": {"score": <whole level>, "reason": "<one line>"}, ...}}

Pairwise mode asks which of two answers (shown as "Answer A" and "Answer B") is better::

    {"winner": "A" | "B" | "tie", "reason": "<one line>"}

Parsing is strict: the reply must be exactly one JSON object (RFC 8259: no code fence, no trailing text, no NaN,
no duplicate key) that validates against the JSON Schema (jsonschema, Draft 2020-12): every criterion present,
no other key, scores whole and inside the criterion's scale, reasons one non-empty line. Anything else is a
VerdictError whose message says what is wrong; the caller stores a failed row with the raw text, never a guess.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import jsonschema

__all__ = ["Criterion", "rubric_messages", "rubric_schema", "parse_rubric_verdict", "pairwise_messages",
           "PAIRWISE_SCHEMA", "parse_pairwise_verdict", "prompt_hash", "VerdictError"]

ONE_LINE = r"^[^\r\n]*\S[^\r\n]*$"

RUBRIC_SYSTEM = (
    "You are a careful, impartial evaluator. You score one reply against a rubric. Each criterion has levels; "
    "each level has an anchor describing what earns it. Choose, for every criterion, the level whose anchor best "
    "fits the reply, and give a one-line reason. Judge only the reply; ignore its length unless a criterion is "
    "about length. Answer with one JSON object and nothing else: no code fence, no text before or after."
)

PAIRWISE_SYSTEM = (
    "You are a careful, impartial evaluator. You compare two replies to the same request and say which is "
    "better, or that they are equally good. Do not let the order in which the replies are shown, their length "
    "or the names they use influence you. Answer with one JSON object and nothing else: no code fence, no text "
    "before or after."
)


class VerdictError(ValueError):
    """The judge's reply is not a valid verdict; the message says why."""


@dataclass(frozen=True)
class Criterion:
    """A rubric criterion: name, scale and the anchor of every level (level -> text)."""

    name: str
    min_score: int
    max_score: int
    anchors: tuple[tuple[int, str], ...]


def _section(title: str, text: str | None) -> str:
    return f"## {title}\n{text if text is not None else '(not recorded)'}\n"


def rubric_messages(criteria: list[Criterion], input_text: str | None, response_text: str,
                    reference_text: str | None = None) -> list[dict]:
    """The chat messages for scoring one reply. The reference answer is included when the item has one."""
    parts = [_section("Request", input_text)]
    if reference_text:
        parts.append(_section("Reference (what a correct reply must say)", reference_text))
    parts.append(_section("Reply to score", response_text))
    lines = ["## Rubric"]
    for c in criteria:
        lines.append(f"### {c.name} (whole number from {c.min_score} to {c.max_score})")
        lines.extend(f"- {level}: {anchor}" for level, anchor in c.anchors)
    parts.append("\n".join(lines) + "\n")
    example = {"scores": {c.name: {"score": c.min_score, "reason": "one line"} for c in criteria}}
    parts.append("## Answer format\nReply with exactly this JSON shape, one entry per criterion, scores from the "
                 "scale above, each reason one line:\n" + json.dumps(example, ensure_ascii=False))
    return [{"role": "system", "content": RUBRIC_SYSTEM}, {"role": "user", "content": "\n".join(parts)}]


def rubric_schema(criteria: list[Criterion]) -> dict:
    """JSON Schema of a rubric verdict for these criteria."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["scores"],
        "additionalProperties": False,
        "properties": {"scores": {
            "type": "object",
            "required": [c.name for c in criteria],
            "additionalProperties": False,
            "properties": {c.name: {
                "type": "object",
                "required": ["score", "reason"],
                "additionalProperties": False,
                "properties": {
                    "score": {"type": "integer", "minimum": c.min_score, "maximum": c.max_score},
                    "reason": {"type": "string", "pattern": ONE_LINE},
                },
            } for c in criteria},
        }},
    }


def pairwise_messages(input_text: str | None, first_text: str, second_text: str,
                      criteria: list[Criterion] | None = None, reference_text: str | None = None) -> list[dict]:
    """The chat messages for one comparison; ``first_text`` is shown as Answer A, ``second_text`` as Answer B.
    The rubric's criteria (when given) tell the judge what "better" means."""
    parts = [_section("Request", input_text)]
    if reference_text:
        parts.append(_section("Reference (what a correct reply must say)", reference_text))
    parts.append(_section("Answer A", first_text))
    parts.append(_section("Answer B", second_text))
    if criteria:
        parts.append("## What makes a reply better\n" + "\n".join(
            f"- {c.name}: " + "; ".join(f"{level} = {anchor}" for level, anchor in c.anchors) for c in criteria
        ) + "\n")
    parts.append('## Answer format\nReply with exactly this JSON shape: {"winner": "A", "reason": "one line"} '
                 'where winner is "A", "B" or "tie".')
    return [{"role": "system", "content": PAIRWISE_SYSTEM}, {"role": "user", "content": "\n".join(parts)}]


PAIRWISE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["winner", "reason"],
    "additionalProperties": False,
    "properties": {
        "winner": {"enum": ["A", "B", "tie"]},
        "reason": {"type": "string", "pattern": ONE_LINE},
    },
}


def prompt_hash(messages: list[dict]) -> str:
    """sha256 (hex) of the messages as canonical JSON (sorted keys, no spaces, UTF-8)."""
    return hashlib.sha256(_canonical(messages)).hexdigest()


def _canonical(value) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _no_duplicates(pairs):
    keys = [k for k, _ in pairs]
    dupes = sorted({k for k in keys if keys.count(k) > 1})
    if dupes:
        raise VerdictError(f"key {dupes[0]!r} appears twice")
    return dict(pairs)


def _reject_constant(name):
    raise VerdictError(f"{name} is not valid JSON")


def strict_json(text: str) -> dict:
    """Parse ``text`` as exactly one JSON object (surrounding whitespace allowed); raise VerdictError otherwise."""
    try:
        value = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise VerdictError(f"not valid JSON ({exc.msg}: line {exc.lineno} column {exc.colno})") from None
    if not isinstance(value, dict):
        raise VerdictError(f"a JSON {type(value).__name__} where an object was asked for")
    return value


def _validate(value: dict, schema: dict) -> None:
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(value), key=lambda e: list(e.path))
    if errors:
        e = errors[0]
        where = "/".join(str(p) for p in e.path) or "(top level)"
        raise VerdictError(f"verdict does not match the schema at {where}: {e.message}")


def parse_rubric_verdict(text: str, criteria: list[Criterion]) -> dict[str, tuple[int, str]]:
    """criterion -> (score, reason) from the judge's reply; VerdictError when it is not a valid verdict."""
    value = strict_json(text)
    _validate(value, rubric_schema(criteria))
    return {c.name: (int(value["scores"][c.name]["score"]), value["scores"][c.name]["reason"].strip())
            for c in criteria}


def parse_pairwise_verdict(text: str) -> tuple[str, str]:
    """("A" | "B" | "tie", reason) from the judge's reply; VerdictError when it is not a valid verdict."""
    value = strict_json(text)
    _validate(value, PAIRWISE_SCHEMA)
    return value["winner"], value["reason"].strip()
