"""The TAT-QA official answer metric (exact match and F1), re-implemented from its source.

Source: Zhu et al., "TAT-QA: A Question Answering Benchmark on a Hybrid of Tabular and Textual Content in Finance",
ACL 2021; repository ``NExTplusplus/TAT-QA`` (``tatqa_metric.py``: ``TaTQAEmAndF1``, ``get_answer_str``,
``add_percent_pred``, ``get_metrics``; ``tatqa_utils.py``: ``normalize_answer``, ``to_number``, ``is_number``,
``scale_to_num``). The Program-of-Thoughts repository (Chen et al., TMLR 2023) ships a copy in ``eval_tatqa/`` that
differs in one line: ``extract_one_num_from_str`` takes the LAST number of a string instead of the first
(``number_pick='last'`` here reproduces that copy; the default is the official first).

One question is scored from: the gold answer (a list of strings for span / multi-span, a number for arithmetic, a
number or numeric string for count), the gold ``answer_type`` and ``scale`` ('' | thousand | million | billion |
percent), the prediction (a string, a number, or a list of them) and the predicted scale (free text).

1. No prediction (``None``, ``""``, ``[]`` - and also the number ``0``, Python-falsy) scores 0.
2. Gold strings: span / multi-span -> the list; arithmetic -> ``[str(answer)]``; count -> ``[str(int(answer))]``.
3. Each side becomes ONE string (:func:`answer_string`): the answers sorted (Python ``sorted`` on the raw values),
   each number-like answer replaced by ``'%.4f' % (round(value, 2) * scale)`` - thousand 1e3, million 1e6, billion
   1e9, percent 0.01, anything else 1 (the scale word is matched as a substring, so ``thousands`` and
   ``percentage`` count) - or, when it already carries '%', by ``'%.4f' % value`` (value already / 100); a text
   answer gets ``" " + scale`` appended; the pieces are joined with a space.
4. A single bare-number prediction with no predicted scale also gets a second candidate, its value as
   ``'%.4f'`` (:func:`percent_candidate`: "0.2212" matches gold 22.12 percent).
5. EM = 1 when some candidate, normalised (:func:`normalize_answer`), equals the normalised gold string. F1 = the
   token-set F1 of the two normalised strings (DROP F1), rounded to 2 decimals; the best candidate wins by
   (EM, F1) in that order. For arithmetic and count questions F1 is set to EM.

Quirks kept (they are the metric as published; changing them would change every TAT-QA figure):
- Multi-span answers are joined into ONE string before comparison, so the DROP bag alignment sees one bag per
  side: EM needs the same normalised token sequence, F1 is a token-SET F1 (duplicates collapse, order ignored).
- Sorting happens before lower-casing, so ``['Singapore', 'china']`` and ``['china', 'singapore']`` join in a
  different order: EM 0, F1 1.
- ``0`` as a prediction is "no prediction" (falsy), even when the gold is 0.
- Numbers are rounded to 2 decimals (half-to-even on binary floats, Python ``round``) and then scaled; a gold of
  22.12 percent matches 0.2212 and 22.1231 with scale percent, not 22.1231 without a scale.
- A number token keeps its punctuation (``$22.12`` normalises to ``22.12``, ``(134.12)`` to ``-134.12``,
  ``18.3%`` to ``0.183``); ``is_number`` uses Python ``float`` on the first word, so ``inf`` is a number whose
  value is missing and normalises to the text ``None``.
- An answer of the form ``<number> <word>`` is a number only when the word is a scale word.
"""
from __future__ import annotations

import re
import string
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "TatqaScore", "scale_to_num", "is_number", "to_number", "normalize_answer", "answer_string",
    "percent_candidate", "token_f1", "gold_strings", "tatqa_official",
    "tatqa_official_em", "tatqa_official_f1", "TATQA_ANSWER_TYPES",
]

TATQA_ANSWER_TYPES = ("span", "multi-span", "arithmetic", "count")

_NUM_EXCLUDED = set("'\"\\$€£¥%(),[]")
_PUNCT = set(string.punctuation)
# str.translate tables deleting those characters: the same strings as the official code's join of the characters
# not in the sets, faster (apply_rule over the bundled packs' 21,495 distinct inputs: 0.88 s -> 0.79 s)
_NUM_EXCLUDED_DELETE = str.maketrans("", "", "".join(_NUM_EXCLUDED))
_PUNCT_DELETE = str.maketrans("", "", "".join(_PUNCT))
_NUM_RE = re.compile(r"([+-]?\d+(\.\d+)?)|([+-]?\.\d+)")
_ARTICLES = re.compile(r"\b(a|an|the)\b", re.UNICODE)
_NEG_RE = re.compile(r"(\([\d.\s]+\))")
_PCT_RE = re.compile(r"([\d.\s]+%)")
_WORD_SCALE_RE = re.compile(r"([\d.]+\s?[a-zA-Z]+)")


@dataclass(frozen=True)
class TatqaScore:
    """em: 0 or 1; f1: 0..1 rounded to 2 decimals (= em for arithmetic / count); gold / candidates: the
    normalised strings compared (for inspection)."""
    em: float
    f1: float
    gold: str | None
    candidates: tuple[str, ...]


def scale_to_num(scale: str | None) -> float:
    """Multiplier of a scale word, matched as a lower-case substring in this order: hundred 100, thousand 1e3,
    million 1e6, billion 1e9, percent 0.01; anything else (``''``, ``year``, ``MWh``) 1."""
    s = (scale or "").lower()
    for word, num in (("hundred", 100), ("thousand", 1000), ("million", 1000000), ("billion", 1000000000),
                      ("percent", 0.01)):
        if word in s:
            return num
    return 1


def _clean_num(text: Any) -> str:
    return str(text).translate(_NUM_EXCLUDED_DELETE)


def _first_or_last_number(text: str, number_pick: str) -> int | float | None:
    found = _NUM_RE.findall(_clean_num(text))
    if not found:
        return None
    num = (found[0] if number_pick == "first" else found[-1])[0]
    if num == "":  # only the '.5' alternative matched: the source returns None here
        return None
    return float(num) if "." in num else int(num)


def is_number(text: str) -> bool:
    """True when the first whitespace word (quotes, currency signs, '%', brackets and commas removed) is a Python
    float that is not NaN, and a second word, if any, is a scale word."""
    try:
        words = " ".join(_clean_num(w) for w in text.split()).split()
        if not words:
            return False
        num = float(words[0])
        if num != num:  # NaN
            return False
        if len(words) >= 2 and scale_to_num(words[1]) == 1:
            return False
        return True
    except ValueError:
        return False


def to_number(text: str, number_pick: str = "first") -> float | None:
    """Value of a number text: its first number (``number_pick='last'``: the PoT copy's last) x the scale word
    glued to a number (``2.3million``; first match) x -1 for ``(134)`` x 0.01 for ``12%``, rounded to 4 decimals."""
    num = _first_or_last_number(text, number_pick)
    if num is None:
        return None
    m = _WORD_SCALE_RE.search(text)
    scale = scale_to_num(m.group(0).lower()) if m else 1
    negative = -1 if _NEG_RE.findall(text.strip()) else 1
    percent = 0.01 if _PCT_RE.findall(text.strip()) else 1
    return round(num * scale * negative * percent, 4)


def _remove_punc(token: str) -> str:
    return token if is_number(token) else token.translate(_PUNCT_DELETE)


def normalize_answer(text: str, number_pick: str = "first") -> str:
    """Per space-separated token: lower-case; strip punctuation unless the token is a number; a number token
    becomes ``str(to_number(token))``; articles a/an/the removed; empty tokens dropped; joined with one space."""
    parts = []
    for token in text.split(" "):
        t = _remove_punc(token.lower())
        if is_number(t):
            t = str(to_number(t, number_pick))
        t = " ".join(_ARTICLES.sub(" ", t).split())
        if t.strip():
            parts.append(t)
    return " ".join(parts).strip()


def answer_string(answers: Sequence[Any], scale: str | None, number_pick: str = "first") -> str:
    """Step 3 of the module docstring: the answers sorted, numbers scaled and printed ``%.4f``, texts followed by
    the scale word, joined with a space."""
    pieces = []
    for ans in sorted(answers):
        s = str(ans)
        if is_number(s):
            num = to_number(s, number_pick)
            if num is None:
                if scale:
                    s = s + " " + str(scale)
            elif "%" in s:
                s = "%.4f" % num
            else:
                s = "%.4f" % (round(num, 2) * scale_to_num(scale))
        elif scale:
            s = s + " " + str(scale)
        pieces.append(s)
    return " ".join(pieces)


def percent_candidate(prediction: Sequence[Any], pred_scale: str | None, number_pick: str = "first") -> str | None:
    """Step 4: a single number prediction without a predicted scale and without '%' also counts as its bare
    value (``'%.4f'``), so 0.2212 can match a gold of 22.12 percent. None otherwise."""
    if len(prediction) > 1:
        return None
    s = str(prediction[0])
    if not pred_scale and "%" not in s and is_number(s):
        num = to_number(s, number_pick)
        if num is not None:
            return "%.4f" % num
    return None


def token_f1(predicted: set[str], gold: set[str]) -> float:
    """DROP token-set F1: precision = |P & G| / |P| (1 when P is empty), recall = |P & G| / |G| (1 when G is empty),
    F1 = 2pr / (p + r), 0 when both are 0."""
    inter = len(gold & predicted)
    p = inter / len(predicted) if predicted else 1.0
    r = inter / len(gold) if gold else 1.0
    return 0.0 if p == 0.0 and r == 0.0 else (2 * p * r) / (p + r)


def _round2(x: float) -> float:
    """Round to 2 decimals as the source does (``round`` on a NumPy float: x * 100, round half to even, / 100)."""
    return round(x * 100) / 100


def gold_strings(answer: Any, answer_type: str) -> list[str]:
    """Step 2: the gold answers as the metric reads them (span / multi-span: the list; arithmetic:
    ``[str(answer)]``; count: ``[str(int(answer))]``; any other type: ``[str(answer)]``)."""
    if answer_type in ("span", "multi-span"):
        if not isinstance(answer, (list, tuple)):
            raise ValueError(f"TAT-QA gold of type {answer_type!r} must be a list, got {answer!r}")
        return list(answer)
    if answer_type == "count":
        return [str(int(answer))]
    return [str(answer)]


def tatqa_official(answer: Any, answer_type: str, scale: str | None, prediction: Any, pred_scale: str | None,
                   number_pick: str = "first") -> TatqaScore:
    """EM and F1 of one TAT-QA question under the official metric (module docstring). ``number_pick='last'``
    gives the Program-of-Thoughts copy of the metric."""
    if not prediction:
        return TatqaScore(0.0, 0.0, None, ())
    gold = gold_strings(answer, answer_type)
    if not gold:
        return TatqaScore(0.0, 0.0, None, ())
    gold_norm = normalize_answer(answer_string(gold, scale or "", number_pick), number_pick)
    preds = prediction if isinstance(prediction, list) else [prediction]
    candidates = [answer_string(preds, pred_scale or "", number_pick)]
    extra = percent_candidate(preds, pred_scale, number_pick)
    if extra is not None:
        candidates.append(extra)
    best, normed = (0.0, 0.0), []
    gold_bag = set(gold_norm.split())
    for cand in candidates:
        cand_norm = normalize_answer(cand, number_pick)
        normed.append(cand_norm)
        em = 1.0 if cand_norm == gold_norm else 0.0
        f1 = _round2(token_f1(set(cand_norm.split()), gold_bag))
        best = max(best, (em, f1))
    em, f1 = best
    if answer_type in ("arithmetic", "count"):
        f1 = em
    return TatqaScore(em, f1, gold_norm, tuple(normed))


def tatqa_official_em(answer: Any, answer_type: str, scale: str | None, prediction: Any,
                      pred_scale: str | None) -> float:
    """Exact match (0 or 1) under the official TAT-QA metric."""
    return tatqa_official(answer, answer_type, scale, prediction, pred_scale).em


def tatqa_official_f1(answer: Any, answer_type: str, scale: str | None, prediction: Any,
                      pred_scale: str | None) -> float:
    """F1 (0..1, 2 decimals; = EM for arithmetic / count) under the official TAT-QA metric."""
    return tatqa_official(answer, answer_type, scale, prediction, pred_scale).f1
