"""Exact money and quantity text for the decision cases.

Raw POS amounts arrive as text: ``1200``, ``12.5``, ``"1,200"`` (quoted thousands), ``¥1,200``, ``-¥350``,
``¥-350``. ``parse_amount`` turns them into ``Decimal`` without ever going through float; anything else (``N/A``,
``1,2,00``, ``12.``, empty, 10^12 or more) is rejected with ``None`` so the caller can flag the row. The same grammar is used by the
SQL macro ``decisions_parse_amount`` (macros/decisions_portable.sql); tests check both on the same strings.

Rounding rule (stated once, used for every displayed cent value): **round half away from zero** to 2 decimals
(``decimal.ROUND_HALF_UP``; also what DuckDB's ``round()`` does on DECIMAL): 0.125 -> 0.13 and -0.125 -> -0.13.
Banker's rounding (half-even) would give 0.12 and -0.12; we do not use it. Verdicts never use rounded values: they
compare the exact recomputed value with the exact claimed value.
"""
from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

# optional sign, optional yen mark (half or full width), optional sign after it, then digits grouped by
# thousands with commas or plain digits, optional fraction of 1-6 digits (more would not fit DECIMAL(38, 6)).
AMOUNT_PATTERN = r"-?[¥￥]?-?([0-9]{1,3}(,[0-9]{3})+|[0-9]+)(\.[0-9]{1,6})?"
_AMOUNT_RE = re.compile(AMOUNT_PATTERN)
CENT = Decimal("0.01")


def parse_amount(text: str | None) -> Decimal | None:
    """Exact value of a money/quantity text, or None when empty or not in the accepted grammar."""
    if text is None:
        return None
    s = text.strip()
    if not s or not _AMOUNT_RE.fullmatch(s):
        return None
    if s.count("-") > 1:
        return None
    cleaned = s.replace("¥", "").replace("￥", "").replace(",", "")
    try:
        value = Decimal(cleaned)
        return value if abs(value) < Decimal(10) ** 12 else None  # DECIMAL(18, 6) in SQL
    except InvalidOperation:  # pragma: no cover - the pattern already excludes these
        return None


def round_cents(value: Decimal) -> Decimal:
    """Round to cents, half away from zero (ROUND_HALF_UP): 0.125 -> 0.13, -0.125 -> -0.13."""
    return value.quantize(CENT, rounding=ROUND_HALF_UP)
