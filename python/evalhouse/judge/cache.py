"""The judge cache: one JSON file per answered call under ``data/judge_cache/``, keyed on the request.

Key = sha256 of the canonical JSON of the whole request payload (model, messages, temperature, seed, max_tokens,
response format), so the prompt hash, the model and every parameter are part of it. A file holds the payload, the
HTTP 200 response body and its latency; files are written once (new-file-only) and never edited. Only answered
calls are cached (including replies that turn out malformed: the answer was paid for); failures without an answer
(timeouts, HTTP errors) are not, so a rerun tries them again.
"""
from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from pathlib import Path

from evalhouse import paths
from evalhouse.files import write_new

__all__ = ["call_key", "JudgeCache", "default_cache_dir"]


def default_cache_dir() -> Path:
    return paths.project_dir() / "data" / "judge_cache"


def call_key(payload: dict) -> str:
    """sha256 (hex) of the canonical JSON of the request payload."""
    return hashlib.sha256(json.dumps(payload, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode("utf-8")).hexdigest()


class JudgeCache:
    """Read and write cached answers in ``root/<first 2 hex>/<key>.json``."""

    def __init__(self, root: Path | None = None):
        self.root = Path(root) if root else default_cache_dir()

    def _path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict | None:
        """The cached entry ({payload, body, latency_ms, cached_at}) or None. An unreadable file is a miss."""
        try:
            entry = json.loads(self._path(key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) and isinstance(entry.get("body"), dict) else None

    def put(self, key: str, payload: dict, body: dict, latency_ms: int | None) -> None:
        """Store an answered call; a concurrent writer of the same key wins and this write is dropped."""
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        entry = {"payload": payload, "body": body, "latency_ms": latency_ms,
                 "cached_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
        try:
            write_new(path, json.dumps(entry, ensure_ascii=False, sort_keys=True).encode("utf-8"))
        except FileExistsError:
            pass
