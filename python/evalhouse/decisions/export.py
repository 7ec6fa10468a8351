"""The blind benchmark package (``evalhouse export-benchmark OUT``).

Copies ``protocol.json``, ``cases.csv`` and every file under ``cases/`` (POS rows, budget, inventory, context; the
R01 real-data Parquet and its SOURCE.md) into ``OUT``, plus a README on how to fill the result files. Nothing under
``evaluation/`` and no file whose name contains "golden" is ever copied: the copy walks an allow-list (protocol,
cases index, the cases folder) and refuses any path part that looks like evaluation material.

For each group, ``OUT/<group>_results.json`` is created empty (status ``not_run``) only when it does not exist:
creation uses ``O_CREAT | O_EXCL``, so an existing result file -- possibly edited by hand -- is never truncated or
rewritten, even by a concurrent export. Case files are refreshed with temp file + rename.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from evalhouse.decisions.casepack import GROUPS, PUBLIC_GROUPS, _dump
from evalhouse.files import copy_replace, write_replace

_FORBIDDEN_PARTS = ("golden", "evaluation")

README = """# Blind benchmark package

Same raw data, business goal, output protocol and visible limits for every group. No evaluation labels are in
this package.

- `protocol.json`: business definitions, decision priorities, numeric thresholds, permission boundaries and the
  neutral output protocol (card fields BUSINESS STATE .. CONFIDENCE, the six P&L IMPACT fields and their scope).
- `cases.csv`: the cases and their periods; `cases/<case>/`: raw POS rows, budget, inventory and context.
- `<group>_results.json`: one file per group. Fill `cards` with `{"case_id", "attempt_id", "card"}` objects and
  set `status` to `completed`; leave `status` at `not_run` for a group that did not run. Re-exporting never
  overwrites these files.
"""


@dataclass
class ExportReport:
    out_dir: Path
    copied: list[str] = field(default_factory=list)
    created_result_files: list[str] = field(default_factory=list)
    kept_result_files: list[str] = field(default_factory=list)


def _is_forbidden(rel: Path) -> bool:
    return any(any(bad in part.lower() for bad in _FORBIDDEN_PARTS) for part in rel.parts)


def export_benchmark(pack_dir: Path, out_dir: Path, groups: tuple[str, ...] = GROUPS) -> ExportReport:
    pack_dir, out_dir = Path(pack_dir), Path(out_dir)
    if not (pack_dir / "protocol.json").is_file() or not (pack_dir / "cases").is_dir():
        raise FileNotFoundError(f"{pack_dir}: not a case pack (needs protocol.json and cases/)")
    if out_dir.resolve() == pack_dir.resolve() or pack_dir.resolve() in out_dir.resolve().parents:
        raise ValueError(f"{out_dir}: the package must be outside the case pack {pack_dir}")
    report = ExportReport(out_dir)
    sources = [pack_dir / "protocol.json", pack_dir / "cases.csv"]
    sources += sorted(p for p in (pack_dir / "cases").rglob("*") if p.is_file())
    for src in sources:
        rel = src.relative_to(pack_dir)
        if _is_forbidden(rel):
            continue
        copy_replace(src, out_dir / rel)
        report.copied.append(str(rel))
    write_replace(out_dir / "README.md", README.encode("utf-8"))
    for group in groups:
        target = out_dir / f"{group}_results.json"
        template = {"group": group, "status": "not_run",
                    "response_shape": "public" if group in PUBLIC_GROUPS else "internal",
                    "protocol_version": "1.0", "cards": []}
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            report.kept_result_files.append(target.name)
            continue
        with os.fdopen(fd, "wb") as fh:
            fh.write(_dump(template))
        report.created_result_files.append(target.name)
    return report
