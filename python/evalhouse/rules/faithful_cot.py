"""The Faithful-CoT authors' GSM8K answer rule (Lyu et al., IJCNLP-AACL 2023).

Source: repository ``veronica320/Faithful-COT`` at ``301784317c99`` (the commit the shipped predictions come from),
``source/dataset/utils.py`` (``extract_gold_answer``, ``extract_pred_answer``, ``str2num``) and
``source/evaluate/evaluate_answer_acc.py`` (``is_correct``, ``evaluate_acc``). Re-implemented here from reading them.

Rule, for a prediction string ``answer`` (the value the authors' pipeline extracted or computed) and the gold
integer (the number after ``#### `` in the reference solution, thousands commas removed):

1. if ``[invalid]`` occurs anywhere in the text the prediction is invalid;
2. take the FIRST match of ``-?[0-9.,]+`` in the text (a run of digits, dots and commas, optional leading '-');
   no match -> invalid;
3. drop the commas and read it with ``float``; a run that is not a float (``"."``, ``"1.2.3"``) -> invalid;
4. truncate toward zero (``int``) and take the absolute value;
5. correct iff that integer equals the gold integer.

Accuracy = correct / evaluated, in percent rounded to 1 decimal by the authors (``round(100 * c / n, 1)``).

Quirks kept, because they are the authors' rule and their published figures rest on them:
- *first* number, not last: in a sentence ("He had 5 apples, ate 2, so 3 are left") 5 is read;
- truncation: ``22.67`` counts as 22 and ``22.9999999`` as 22 (a binary-float 23 computed as 22.999... is wrong);
- absolute value: ``-5`` counts as 5 (a sign error is forgiven);
- no exponent: ``1e+20`` reads as 1; the fraction branch of ``str2num`` (``"/"``) is dead code for GSM8K because
  the regex never captures a '/'; ``"3/4"`` reads as 3;
- a prediction stored as a JSON *integer* (program answers) is taken as is, without the absolute value: ``-20``
  as an integer is wrong for a gold of 20, while the text ``"-20"`` is right (the ``type(pred) == int`` branch);
- a dot or comma alone is a match (``"... answer is ."``), and then the answer is invalid rather than the next number.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["FaithfulCotAnswer", "faithful_cot_gsm8k_answer", "faithful_cot_gsm8k_gold", "faithful_cot_gsm8k"]

INVALID = "[invalid]"
_ANSWER_RE = re.compile(r"(-?[0-9.,]+)")
_GOLD_RE = re.compile(r"#### (-?[0-9.,]+)")


@dataclass(frozen=True)
class FaithfulCotAnswer:
    """value: the integer the rule reads (None when invalid); token: the matched text; status: why."""
    value: int | None
    token: str | None
    status: str  # 'number' | 'invalid_marker' | 'no_number' | 'unparseable_number'


def faithful_cot_gsm8k_answer(answer: str | int | None) -> FaithfulCotAnswer:
    """The integer the Faithful-CoT rule reads from a prediction (steps 1-4 of the module docstring).

    An ``int`` is taken as is (the authors' ``type(pred) == int`` branch); ``None`` is invalid.
    """
    if answer is None:
        return FaithfulCotAnswer(None, None, "no_number")
    if isinstance(answer, bool):
        answer = str(answer)
    if isinstance(answer, int):
        return FaithfulCotAnswer(answer, str(answer), "number")
    text = str(answer)
    if INVALID in text:
        return FaithfulCotAnswer(None, None, "invalid_marker")
    m = _ANSWER_RE.search(text)
    if not m:
        return FaithfulCotAnswer(None, None, "no_number")
    token = m.group(1).strip()
    try:
        value = abs(int(float(token.replace(",", ""))))
    except (ValueError, OverflowError):
        return FaithfulCotAnswer(None, token, "unparseable_number")
    return FaithfulCotAnswer(value, token, "number")


def faithful_cot_gsm8k_gold(solution_or_answer: str | int) -> int | None:
    """The gold integer: the number after ``#### `` (commas dropped) in a reference solution, or a bare integer
    / integer text (the warehouse stores the extracted gold). None when there is none (the authors' ``[invalid]``)."""
    if isinstance(solution_or_answer, int):
        return solution_or_answer
    text = str(solution_or_answer)
    m = _GOLD_RE.search(text)
    raw = m.group(1) if m else text
    try:
        return int(raw.strip().replace(",", ""))
    except ValueError:
        return None


def faithful_cot_gsm8k(gold: str | int, answer: str | int | None) -> bool:
    """True when the prediction is correct under the Faithful-CoT GSM8K rule (module docstring)."""
    g = faithful_cot_gsm8k_gold(gold)
    p = faithful_cot_gsm8k_answer(answer)
    return g is not None and p.value is not None and p.value == g
