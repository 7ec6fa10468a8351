"""Writing files safely: through a temporary file in the same folder, so a reader never sees a half-written file.

- ``write_new``: the file must not exist yet; the temporary file is hard-linked to its name, which fails with
  FileExistsError instead of replacing an existing file (append-only stores, blind keys and packets).
- ``write_replace`` / ``copy_replace``: the file is replaced atomically with ``os.replace`` (published warehouse,
  regenerated package files).
Files are written readable by everyone (0644) and fsync'ed before they get their name.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path


def _temp_in(folder: Path) -> str:
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".incoming-", dir=folder)
    os.close(fd)
    return tmp


def _fill(tmp: str, data: bytes | None = None, src: Path | None = None) -> None:
    if src is not None:
        shutil.copyfile(src, tmp)
    else:
        with open(tmp, "wb") as fh:
            fh.write(data or b"")
    with open(tmp, "rb+") as fh:
        os.fsync(fh.fileno())
    os.chmod(tmp, 0o644)


def write_new(path: Path, data: bytes) -> Path:
    """Create ``path`` with ``data``; raises FileExistsError (and writes nothing) when it exists."""
    path = Path(path)
    tmp = _temp_in(path.parent)
    try:
        _fill(tmp, data=data)
        os.link(tmp, path)
    finally:
        os.unlink(tmp)
    return path


def write_replace(path: Path, data: bytes) -> Path:
    """Write ``path`` with ``data``, atomically replacing any existing file."""
    path = Path(path)
    tmp = _temp_in(path.parent)
    try:
        _fill(tmp, data=data)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return path


def copy_replace(src: Path, dst: Path) -> Path:
    """Copy ``src`` to ``dst``, atomically replacing any existing file."""
    dst = Path(dst)
    tmp = _temp_in(dst.parent)
    try:
        _fill(tmp, src=Path(src))
        os.replace(tmp, dst)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return dst


def files_under(folder: Path) -> list[Path]:
    """Every file under ``folder``, sorted, following symbolic links to folders as DuckDB's globs and the suite
    check do (``Path.rglob`` does not, so an edit behind a linked folder went unseen by the fingerprints); each real
    folder is visited once, so a link cycle ends. ``__pycache__`` folders are left out; a missing folder gives []."""
    out, seen = [], set()
    for dirpath, dirnames, filenames in os.walk(folder, followlinks=True):
        real = os.path.realpath(dirpath)
        if real in seen:
            dirnames[:] = []
            continue
        seen.add(real)
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        out += [Path(dirpath) / f for f in filenames if (Path(dirpath) / f).is_file()]
    return sorted(out)
