"""Import the runs teams already have: promptfoo, inspect-ai, lm-evaluation-harness and OTLP GenAI traces.

``import_runs(tool, path, suite)`` reads one log with the tool's reader (one module per tool) and maps it into
``suites/<suite>/`` with the shared core (:mod:`evalhouse.importers.core`): new files only, checked before they get
their names, nothing stored on any problem, the same file twice adds nothing.
"""
from __future__ import annotations

from pathlib import Path

from evalhouse.importers.core import ImportResult, LogRejected, RunLog, import_log, sha256_file
from evalhouse.runtime import gc_paused

__all__ = ["TOOLS", "import_runs", "read_log", "LogRejected", "ImportResult"]

TOOLS = ("promptfoo", "inspect", "lm-eval", "otlp")


def read_log(tool: str, path: Path) -> RunLog:
    """Read one log of ``tool`` into neutral records (raises LogRejected naming the file and sample)."""
    path = Path(path)
    if tool == "promptfoo":
        from evalhouse.importers import promptfoo as mod
    elif tool == "inspect":
        from evalhouse.importers import inspect_log as mod
    elif tool == "lm-eval":
        from evalhouse.importers import lm_eval as mod
    elif tool == "otlp":
        from evalhouse.importers import otlp as mod
    else:
        raise LogRejected(f"unknown tool {tool!r}: one of {', '.join(TOOLS)}")
    if not path.exists():
        raise LogRejected(f"{path}: no such file or folder")
    if path.is_dir() and tool != "lm-eval":  # lm-eval's --output_path is a folder; the other logs are files
        raise LogRejected(f"{path}: a folder; --from {tool} reads one log file")
    try:
        return mod.read(path)
    except LogRejected:
        raise
    except (TypeError, AttributeError, ValueError, IndexError, KeyError) as exc:
        # a field of another type than the tool writes, outside the per-sample checks (which name the sample)
        raise LogRejected(f"{path}: not shaped as a log of {tool} ({type(exc).__name__}: {exc})") from None


def import_runs(tool: str, path: Path, suite: str, run_label: str | None = None,
                root: Path | None = None) -> ImportResult:
    """Import one log file (or, for lm-eval, one output folder) into ``root/<suite>`` (default ``suites/``)."""
    from evalhouse.suites.land import suites_root

    # the import runs in a function of its own: the first collection after it has little left to walk
    with gc_paused():
        return _import(tool, Path(path), suite, run_label, Path(root) if root else suites_root())


def _import(tool: str, path: Path, suite: str, run_label: str | None, root: Path) -> ImportResult:
    log = read_log(tool, path)
    sources = log.source_files or [path]
    return import_log(log, sources[0], _sha(sources), suite, root, run_label=run_label, consume=True)


def _sha(sources: list[Path]) -> str:
    """SHA-256 of the one source file; of several (an lm-eval results file and its samples files), SHA-256 of
    their names and hashes, one per line in the order given."""
    if len(sources) == 1:
        return sha256_file(sources[0])
    import hashlib

    h = hashlib.sha256()
    for f in sources:
        h.update(f"{Path(f).name}\0{sha256_file(f)}\n".encode())
    return h.hexdigest()
