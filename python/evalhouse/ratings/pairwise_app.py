"""Blind pairwise scoring for the app: which pair a rater sees next, in which order, and saving the choice.

A pair is two responses of different systems to the same item of one suite. Its identity is (item, response A,
response B) with A the response whose id sorts first; what the rater sees is slot "A" (shown first) and slot "B"
(shown second). The shown order is drawn per rater and pair from SHA-256(rater | item | A | B) (random to the
rater, the same on every reload) and recorded in ``shown_first``. Pairs are offered in an order drawn the same way
per rater. A choice is saved as one new file of the comparisons store (``append_comparisons``): preference =
P(B better than A) = 0, 0.5 or 1 and its label; a second save of the same pair by the same rater is refused, so a
reload or a double click never stores twice. Model names are given only by ``reveal`` once the pair is saved.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path

import pandas as pd

from evalhouse.judge.comparisons import append_comparisons, read_comparisons

__all__ = ["Pair", "SaveRefused", "pairs_for", "pair_key", "saved_choice", "save_choice", "reveal", "CHOICES"]

CHOICES = ("A", "B", "tie")  # what the rater picks: the first slot, the second slot, or a tie


class SaveRefused(ValueError):
    """The choice cannot be saved (already saved, no rater, no choice)."""


@dataclass(frozen=True)
class Pair:
    suite: str
    item_id: str
    response_id_a: str
    response_id_b: str
    shown_first: str  # 'a' or 'b'

    @property
    def key(self) -> str:
        return pair_key(self.item_id, self.response_id_a, self.response_id_b)

    def slots(self) -> tuple[str, str]:
        """(response in slot A, response in slot B) as the rater sees them."""
        if self.shown_first == "a":
            return self.response_id_a, self.response_id_b
        return self.response_id_b, self.response_id_a


def _draw(*parts: str) -> int:
    return int(hashlib.sha256("|".join(parts).encode("utf-8")).hexdigest()[:12], 16)


def pair_key(item_id: str, a: str, b: str) -> str:
    return hashlib.sha256(f"{item_id}|{a}|{b}".encode()).hexdigest()[:12]


def pairs_for(responses: pd.DataFrame, rater: str) -> list[Pair]:
    """Every pair of the suite's responses (columns suite, item_id, response_id, system_id), in the rater's order.

    Responses without text should be filtered out by the caller. Two responses of the same system are not paired.
    """
    out = []
    for (suite, item), g in responses.groupby(["suite", "item_id"], sort=True):
        rows = sorted(zip(g["response_id"], g["system_id"]))
        for (a, sa), (b, sb) in combinations(rows, 2):
            if sa == sb:
                continue
            first = "a" if _draw(rater, item, a, b, "order") % 2 == 0 else "b"
            out.append(Pair(suite, item, a, b, first))
    return sorted(out, key=lambda p: _draw(rater, p.item_id, p.response_id_a, p.response_id_b, "queue"))


def saved_choice(pair: Pair, rater: str, store_dir: Path | None = None) -> dict | None:
    """The rater's stored row for this pair, or None."""
    for row in read_comparisons(store_dir):
        if (row.get("suite") == pair.suite and row.get("item_id") == pair.item_id
                and row.get("response_id_a") == pair.response_id_a and row.get("response_id_b") == pair.response_id_b
                and row.get("rater_id") == rater and row.get("rater_kind") == "human"):
            return row
    return None


def save_choice(pair: Pair, rater: str, choice: str, reason: str, store_dir: Path | None = None) -> Path:
    """Append the rater's choice ('A' = the first slot, 'B' = the second, 'tie') as a new store file."""
    rater = (rater or "").strip()
    if not rater:
        raise SaveRefused("enter your rater name first")
    if choice not in CHOICES:
        raise SaveRefused("pick A, B or tie")
    if saved_choice(pair, rater, store_dir) is not None:
        raise SaveRefused("you have already saved this pair (nothing was stored twice)")
    if choice == "tie":
        preference, label = 0.5, "tie"
    else:
        chosen = pair.slots()[0 if choice == "A" else 1]
        preference, label = (1.0, "b") if chosen == pair.response_id_b else (0.0, "a")
    row = {"suite": pair.suite, "item_id": pair.item_id, "response_id_a": pair.response_id_a,
           "response_id_b": pair.response_id_b, "rater_id": rater, "rater_kind": "human",
           "shown_first": pair.shown_first, "preference": repr(preference), "preference_label": label,
           "reason": (reason or "").strip(),
           "rated_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    return append_comparisons([row], store_dir, label=f"pairwise_{rater}")


def reveal(pair: Pair, systems: dict[str, str]) -> dict[str, str]:
    """Slot -> system name, for after the choice is saved."""
    first, second = pair.slots()
    return {"A": systems.get(first, first), "B": systems.get(second, second)}
