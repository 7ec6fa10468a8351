"""One build at a time: an exclusive, non-blocking lock around ``dbt build`` + publish.

The lock is an ``flock`` on ``warehouse/build/build.lock``; the file holds the holder's pid and start time, for the
message a second build prints. The kernel releases the lock when its process ends, however it ends, so a lock file
left by a killed build is stale and simply taken over (no manual clean-up).
"""
from __future__ import annotations

import contextlib
import fcntl
import os
from datetime import datetime, timezone
from pathlib import Path

__all__ = ["BuildRunning", "build_lock"]


class BuildRunning(RuntimeError):
    """Another build holds the lock."""


@contextlib.contextmanager
def build_lock(lock_file: Path):
    """Hold the build lock for the ``with`` block; raises BuildRunning at once when another process holds it."""
    lock_file = Path(lock_file)
    lock_file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "unknown process"
            raise BuildRunning(f"another build is running ({holder}); wait for it to finish") from None
        os.ftruncate(fd, 0)
        started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        os.pwrite(fd, f"pid {os.getpid()}, started {started}\n".encode(), 0)
        try:
            yield lock_file
        finally:
            os.ftruncate(fd, 0)
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
