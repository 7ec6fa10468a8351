"""Answer rules: named, documented ways of deciding whether a reported answer matches its gold answer.

A suite chooses its rules per gold kind in its ``suite.yml`` (``answer_rules``; checked by ``evalhouse suite check``
before any model runs, evalhouse.suites.check). Every rule named must be in :data:`RULES` and apply to that gold
kind.

=====================  =====================================  =========================================
rule                   gold kinds                             source
=====================  =====================================  =========================================
house_exact            numeric_fact, string_fact              :mod:`evalhouse.rules.house`
house_tolerance        numeric_fact, string_fact              :mod:`evalhouse.rules.house`
tatqa_official_em      numeric_fact, string_fact,             :mod:`evalhouse.rules.tatqa`
                       span_list_fact                         (TAT-QA ``tatqa_metric.py``)
tatqa_official_f1      (as tatqa_official_em)                 idem
faithful_cot_gsm8k     numeric_fact                           :mod:`evalhouse.rules.faithful_cot`
=====================  =====================================  =========================================

:func:`apply_rule` scores one row of ``int_grade__answer_rule_inputs`` (score 0..1; ``correct`` = score 1).
"""
from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from evalhouse.rules.faithful_cot import faithful_cot_gsm8k, faithful_cot_gsm8k_answer
from evalhouse.rules.house import house_exact, house_tolerance
from evalhouse.rules.tatqa import TatqaScore, tatqa_official

__all__ = ["RuleSpec", "RULES", "GOLD_KINDS", "RuleOutcome", "apply_rule"]

GOLD_KINDS = ("numeric_fact", "string_fact", "span_list_fact")


@dataclass(frozen=True)
class RuleSpec:
    name: str
    gold_kinds: tuple[str, ...]
    source: str


RULES: dict[str, RuleSpec] = {
    "house_exact": RuleSpec("house_exact", ("numeric_fact", "string_fact"),
                            "evalhouse.rules.house: last number token, exact decimal; strings trimmed, exact"),
    "house_tolerance": RuleSpec("house_tolerance", ("numeric_fact", "string_fact"),
                                "evalhouse.rules.house: last number token within abs_tol + rel_tol x |gold|; "
                                "strings case-folded"),
    "tatqa_official_em": RuleSpec("tatqa_official_em", ("numeric_fact", "string_fact", "span_list_fact"),
                                  "TAT-QA official metric (NExTplusplus/TAT-QA tatqa_metric.py), exact match"),
    "tatqa_official_f1": RuleSpec("tatqa_official_f1", ("numeric_fact", "string_fact", "span_list_fact"),
                                  "TAT-QA official metric (NExTplusplus/TAT-QA tatqa_metric.py), DROP token F1"),
    "faithful_cot_gsm8k": RuleSpec("faithful_cot_gsm8k", ("numeric_fact",),
                                   "Faithful-CoT (veronica320/Faithful-COT source/dataset/utils.py): first number, "
                                   "truncated to int, absolute value, = gold int"),
}


@dataclass(frozen=True)
class RuleOutcome:
    """score: 0..1 (1 = correct; F1 rules give fractions); reply_parsed: what the rule read from the reply;
    status: 'scored' or why the reply could not be read ('not_reported', 'invalid_marker', 'no_number', ...)."""
    score: float
    reply_parsed: str | None
    status: str

    @property
    def correct(self) -> bool:
        return self.score >= 1.0


def _json(text: str | None) -> Any:
    return None if text is None else json.loads(text)


@functools.lru_cache(maxsize=1 << 16)
def _tatqa_score(kind: str, answer_type: str | None, gold_value: str, gold_json: str | None, gold_scale: str | None,
                 reply_text: str | None, reply_json: str | None, reply_scale: str | None) -> TatqaScore | None:
    """The official TAT-QA score of one gold fact x reply (apply_rule's reading of the row's fields), None when
    nothing was reported (the reply, as JSON or text, is NULL). EM and F1 come from the same comparison, so the two
    rules of a fact x reply share one call (a pure function of its text arguments; the result is immutable)."""
    default_type = {"numeric_fact": "arithmetic", "string_fact": "span", "span_list_fact": "multi-span"}[kind]
    answer_type = answer_type or default_type
    gold = _json(gold_json)
    if gold is None:
        gold = [gold_value] if answer_type in ("span", "multi-span") else gold_value
    reply = _json(reply_json) if reply_json is not None else reply_text
    if reply is None:
        return None
    return tatqa_official(gold, answer_type, gold_scale or "", reply, reply_scale or "")


def apply_rule(rule: str, row: Mapping[str, Any]) -> RuleOutcome:
    """Score one gold fact x reply under ``rule``.

    ``row`` keys: gold_kind, gold_value (text), gold_json (JSON text of the gold answer, or NULL), answer_type,
    gold_scale, reply_text (NULL = nothing reported), reply_json (JSON text of the reply, or NULL), reply_scale,
    abs_tol, rel_tol. For the TAT-QA rules a fact without answer_type is read as 'arithmetic' (numeric_fact),
    'span' (string_fact) or 'multi-span' (span_list_fact), without scale, its JSON value falling back to the text.
    """
    if rule not in RULES:
        raise ValueError(f"unknown answer rule {rule!r} (known: {', '.join(RULES)})")
    kind = row["gold_kind"]
    if kind not in RULES[rule].gold_kinds:
        raise ValueError(f"answer rule {rule!r} does not apply to gold kind {kind!r}")
    reply_text = row.get("reply_text")
    if rule in ("house_exact", "house_tolerance"):
        if reply_text is None:
            return RuleOutcome(0.0, None, "not_reported")
        ok = house_exact(kind, row["gold_value"], reply_text) if rule == "house_exact" else \
            house_tolerance(kind, row["gold_value"], reply_text, row.get("abs_tol"), row.get("rel_tol"))
        return RuleOutcome(1.0 if ok else 0.0, reply_text, "scored")
    if rule == "faithful_cot_gsm8k":
        if reply_text is None:
            return RuleOutcome(0.0, None, "not_reported")
        reply = _json(row["reply_json"]) if row.get("reply_json") is not None else reply_text
        parsed = faithful_cot_gsm8k_answer(reply)
        ok = faithful_cot_gsm8k(row["gold_value"], reply)
        status = "scored" if parsed.value is not None else parsed.status
        return RuleOutcome(1.0 if ok else 0.0, None if parsed.value is None else str(parsed.value), status)
    # TAT-QA official EM / F1
    s = _tatqa_score(kind, row.get("answer_type"), row["gold_value"], row.get("gold_json"), row.get("gold_scale"),
                     reply_text, row.get("reply_json"), row.get("reply_scale"))
    if s is None:
        return RuleOutcome(0.0, None, "not_reported")
    score = s.em if rule == "tatqa_official_em" else s.f1
    parsed = s.candidates[0] if s.candidates else None
    return RuleOutcome(float(score), parsed, "scored" if s.candidates else "empty_prediction")
