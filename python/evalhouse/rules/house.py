"""The warehouse's own answer rules, ``house_exact`` and ``house_tolerance`` (GRADE grounding, C1).

These are the rules ``fct_grade__fact_checks`` applies in SQL (macros ``grade_number_tokens`` /
``grade_parse_number`` in ``macros/grade.sql``; token pattern :data:`evalhouse.grade.text.NUMBER_PATTERN`); the
functions here state them as pure Python for documentation and for tests, and must agree with the SQL row by row
(``python/tests/test_rules_warehouse.py`` checks every shipped response). The marts take the house values from
the SQL model, so they are unchanged by construction.

Numeric facts (gold kind ``numeric_fact``): the gold must hold exactly one number token; the reply's number is
its LAST number token (``"rose from 12 to 14"`` reads 14), both read as exact decimals (',', currency signs,
'%' and spaces dropped; ``60%`` is 60, never 0.6), rounded to 18 decimals, NULL when |x| >= 1e20.
- ``house_exact``: reply = gold as decimals.
- ``house_tolerance``: |reply - gold| <= abs_tol + rel_tol * |gold| (gold is the reference, boundary inclusive;
  the tolerance is computed in DECIMAL(38, 18) from |gold| at 12 decimals, as the SQL does).

String facts (gold kind ``string_fact``):
- ``house_exact``: trim(reply) = trim(gold) (spaces only trimmed, case kept).
- ``house_tolerance``: casefold(trim(reply)) = casefold(trim(gold)) (Unicode full case folding; nothing else is
  normalised: no article stripping, no numeric reading of ids).

A reply that is missing, holds no number, or holds an unparseable number is wrong under both rules.
"""
from __future__ import annotations

from decimal import ROUND_HALF_UP, Context, Decimal

from evalhouse.grade.text import number_tokens, parse_number_token

__all__ = ["house_number", "house_exact", "house_tolerance"]

_Q18 = Decimal("1e-18")
_Q12 = Decimal("1e-12")
_LIMIT = Decimal("1e20")
_CTX = Context(prec=60)  # DECIMAL(38, 18) values need 38 digits; the default context keeps 28


def _dec(value: Decimal | None, quantum: Decimal) -> Decimal | None:
    if value is None or not value.is_finite() or abs(value) >= _LIMIT:
        return None
    return value.quantize(quantum, rounding=ROUND_HALF_UP, context=_CTX)


def house_number(text: str | None, *, last: bool = True) -> Decimal | None:
    """The decimal the house rules read from a text: the last number token (``last=False``: the only token,
    None when there are several - the gold side); None when there is none or it does not parse."""
    toks = number_tokens(text)
    if not toks or (not last and len(toks) != 1):
        return None
    return _dec(parse_number_token(toks[-1])[0], _Q18)


def _trim(s: str) -> str:
    return s.strip(" ")


def house_exact(gold_kind: str, gold_value: str, reply: str | None) -> bool:
    """Exact match: numeric facts as decimals, string facts as trimmed text (module docstring)."""
    if reply is None:
        return False
    if gold_kind == "numeric_fact":
        g, r = house_number(gold_value, last=False), house_number(reply)
        return g is not None and r is not None and r == g
    if gold_kind == "string_fact":
        return _trim(reply) == _trim(gold_value)
    raise ValueError(f"house_exact does not apply to gold kind {gold_kind!r}")


def house_tolerance(gold_kind: str, gold_value: str, reply: str | None, abs_tol: Decimal | float | None = 0,
                    rel_tol: Decimal | float | None = 0) -> bool:
    """Tolerance match: |reply - gold| <= abs_tol + rel_tol * |gold| for numeric facts, case-folded trimmed
    equality for string facts (module docstring)."""
    if reply is None:
        return False
    if gold_kind == "numeric_fact":
        g, r = house_number(gold_value, last=False), house_number(reply)
        if g is None or r is None:
            return False
        a = Decimal(str(abs_tol or 0))
        rel = Decimal(str(rel_tol or 0))
        tol = _CTX.add(a, _dec(_CTX.multiply(rel, _dec(abs(g), _Q12)), _Q18))
        return _CTX.subtract(r, g).copy_abs() <= tol
    if gold_kind == "string_fact":
        return _trim(reply).casefold() == _trim(gold_value).casefold()
    raise ValueError(f"house_tolerance does not apply to gold kind {gold_kind!r}")
