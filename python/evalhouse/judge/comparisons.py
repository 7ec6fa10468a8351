"""The append-only comparisons store: ``data/comparisons/<suite>/<UTC time>_<rater>_<hash>.csv``.

One row per judgement of a pair (item, response A, response B) by one rater in one shown order. Columns
(``COMPARISON_COLUMNS``, the contract every reader uses):

- ``shown_first``: 'a' when response A was in the first slot, 'b' when response B was;
- ``preference``: decimal in [0, 1], the probability (or share) that B is better than A: 0 = A wins,
  0.5 = tie, 1 = B wins; ``preference_label``: 'a', 'b' or 'tie'. Both empty on a failed judgement, whose
  ``failure_reason`` says why and ``raw_output`` keeps the judge's raw reply (empty when there was none);
- judge metadata (``judge_model``, ``prompt_hash``, ``temperature``, ``seed``, tokens, ``latency_ms`` in
  milliseconds, ``cost`` in ``cost_currency``): empty for a person's judgement or when unknown;
- ``source_file`` (the file's path under the project) and ``source_row`` (1 = first data row).

Files are written once (temporary file + hard link) and never edited, under the folder's lock.
"""
from __future__ import annotations

import csv
import hashlib
import io
from datetime import UTC, datetime
from pathlib import Path

from evalhouse import paths
from evalhouse.files import write_new
from evalhouse.ratings.store import store_lock

__all__ = ["COMPARISON_COLUMNS", "default_comparisons_dir", "append_comparisons", "read_comparisons"]

COMPARISON_COLUMNS = [
    "suite", "item_id", "response_id_a", "response_id_b", "rater_id", "rater_kind", "shown_first", "preference",
    "preference_label", "reason", "rated_at", "judge_model", "prompt_hash", "temperature", "seed", "input_tokens",
    "output_tokens", "latency_ms", "cost", "cost_currency", "raw_output", "failure_reason", "source_file",
    "source_row",
]


def default_comparisons_dir() -> Path:
    return paths.project_dir() / "data" / "comparisons"


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(paths.project_dir()))
    except ValueError:
        return str(path)


def append_comparisons(rows: list[dict], store_dir: Path | None = None, label: str = "") -> Path:
    """Write ``rows`` (one suite) as a new store file; never replaces a file. Returns its path."""
    if not rows:
        raise ValueError("nothing to append")
    suites = sorted({r["suite"] for r in rows})
    if len(suites) != 1:
        raise ValueError(f"comparisons of several suites ({', '.join(suites)}); write one suite per file")
    store_dir = Path(store_dir) if store_dir else default_comparisons_dir()
    with store_lock(store_dir):
        body = [{**{k: r.get(k, "") for k in COMPARISON_COLUMNS}, "source_row": i} for i, r in enumerate(rows, 1)]
        digest = hashlib.sha256(repr([sorted(r.items()) for r in body]).encode("utf-8")).hexdigest()[:10]
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        safe = "".join(ch if ch.isalnum() or ch in "_.-" else "-" for ch in (label or rows[0]["rater_id"]))[:40]
        target = store_dir / suites[0] / f"{stamp}_{safe}_{digest}.csv"
        for r in body:
            r["source_file"] = _relative(target)
        buf = io.StringIO(newline="")
        writer = csv.DictWriter(buf, fieldnames=COMPARISON_COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(body)
        target.parent.mkdir(parents=True, exist_ok=True)
        write_new(target, buf.getvalue().encode("utf-8"))
    return target


def read_comparisons(store_dir: Path | None = None) -> list[dict]:
    """Every stored comparison row (all suites), as text."""
    store_dir = Path(store_dir) if store_dir else default_comparisons_dir()
    out = []
    for f in sorted(store_dir.glob("*/*.csv")):
        with open(f, encoding="utf-8-sig", newline="") as fh:
            out.extend(csv.DictReader(fh))
    return out
