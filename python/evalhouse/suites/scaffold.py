"""``evalhouse suite init NAME``: a new suite folder with a suite.yml to fill in and a README of the columns."""
from __future__ import annotations

from pathlib import Path

from evalhouse import files
from evalhouse.suites.contract import SUITE_NAME, TABLES

__all__ = ["init_suite", "columns_markdown"]

_SUITE_YML = """\
# The suite's declaration: see suites/README.md. Data files beside it: items, responses, response_labels, gold,
# ratings, comparisons (.csv, .jsonl or .parquet; any subset). `evalhouse suite check {name}` validates the folder.
title: {title}
licence: ""            # the data's licence
attribution: ""        # who made the data, and where it comes from
first_filter: false    # true: run the deterministic text checks (JSON, language, sentences, phrases) on the replies
rubrics:
  - rubric_id: {name}_quality
    criteria:
      - criterion: correctness
        description: Is everything it says true?
        min_score: 0
        max_score: 2
        direction: higher          # higher | lower: which end of the scale is better
        levels:
          - {{level: 2, anchor: Everything is true}}
          - {{level: 1, anchor: One small error that does not change the outcome}}
          - {{level: 0, anchor: A wrong claim that changes the outcome}}
    versions:
      - {{version: 1, effective_from: "2026-01-01", change_note: First version}}
    # decision_rule:
    #   ready_gate: [correctness]  # ready: complete, these at their best, no criterion at its worst
"""


def columns_markdown() -> str:
    """The contract's tables and columns as Markdown (the scaffolded README and suites/README.md)."""
    out = []
    for t in TABLES.values():
        key = ", ".join(t.key) if t.key else "(none: append-only)"
        out.append(f"### `{t.name}` — {t.grain}\n\nKey: {key}.\n\n"
                   "| column | type | required | meaning |\n|---|---|---|---|")
        for c in t.columns:
            allowed = f" One of: {', '.join(c.allowed)}." if c.allowed else ""
            out.append(f"| `{c.name}` | {c.type} | {'yes' if c.required else ''} | {c.description}{allowed} |")
        out.append("")
    return "\n".join(out)


def init_suite(root: Path, name: str, title: str | None = None) -> Path:
    """Create ``root/name`` with suite.yml and README.md; refuses a bad name or an existing folder."""
    if not SUITE_NAME.match(name):
        raise ValueError(f"suite name {name!r}: lower-case letters, digits and underscores, starting with a letter")
    folder = Path(root) / name
    if folder.exists():
        raise FileExistsError(f"{folder} already exists")
    folder.mkdir(parents=True)
    files.write_new(folder / "suite.yml", _SUITE_YML.format(name=name, title=title or name).encode())
    readme = (f"# Suite `{name}`\n\nDeclared in `suite.yml`; data files beside it, named for the tables below, "
              f"as `.csv`, `.jsonl` or `.parquet` (or a folder of such files per table). Any subset may be "
              f"present. Check with `evalhouse suite check {name}`; `make build` picks the folder up.\n\n"
              + columns_markdown())
    files.write_new(folder / "README.md", readme.encode())
    return folder
