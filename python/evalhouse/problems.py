"""Problem lists for people: the first problems in full, then a count per kind of the rest.

A bad 50 MB file can hold a problem on every row; printing them all buries the first (and usually only) mistake.
``summarise(problems)`` keeps the first ``limit`` lines as they are and adds, for the others, one line per kind:
the message with its location, quoted values and numbers taken out (``score: '…' is not a whole number``).
"""
from __future__ import annotations

import re
from collections import Counter

__all__ = ["LIMIT", "problem_kind", "summarise"]

LIMIT = 50
KINDS = 20  # kinds listed after the first problems; the rest are counted together
_LOCATION = re.compile(r"^.*?:(?:[0-9]+|-):(?:[0-9]+:)?\s*")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NUMBER = re.compile(r"[0-9]+")


def problem_kind(problem: str) -> str:
    """The kind of a ``file:row:column: message`` (or ``file: where: message``) line: column and message without
    the file, the row, quoted values and numbers."""
    m = _LOCATION.match(problem)
    rest = problem[m.end():] if m else problem.split(": ", 1)[-1]
    return _NUMBER.sub("N", _QUOTED.sub("'…'", rest)).strip()


def summarise(problems: list[str], limit: int = LIMIT) -> str:
    """The first ``limit`` problems, one per line; when there are more, a count of the rest per kind (most frequent
    first). Empty string for no problems."""
    shown = problems[:limit]
    rest = problems[limit:]
    lines = list(shown)
    if rest:
        lines.append(f"... and {len(rest)} more problem(s) ({len(problems)} in all), by kind:")
        kinds = Counter(problem_kind(p) for p in rest).most_common()
        lines += [f"  {n:>8}  {kind}" for kind, n in kinds[:KINDS]]
        if len(kinds) > KINDS:
            lines.append(f"  {sum(n for _, n in kinds[KINDS:]):>8}  ({len(kinds) - KINDS} other kinds)")
    return "\n".join(lines)
