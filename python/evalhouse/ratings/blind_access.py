"""Rater tokens for blind scoring: a rater's saved scores and the model reveal open only with that rater's token.

A rater name alone proves nothing (anyone can type it in the page or the URL), so each rater holds a secret token:
``secrets.token_urlsafe(24)`` (192 random bits), shown once when it is issued and never stored. The project keeps only
its SHA-256, in ``data/blind/raters/<first 32 hex of sha256(rater_id)>.json`` ({rater_id, token_sha256, issued_at});
the file name is a hash so any rater name is a safe file name. A random 192-bit token needs no salt or slow hash: the
stored digest cannot be reversed or guessed.

- ``issue``: the first issue is written as a new file (``files.write_new``), so two people claiming the same name at
  the same moment cannot both get a token; ``replace=True`` (the lead's ``evalhouse blind-token --reissue``) swaps
  in a new token atomically and the old one stops working.
- ``verify``: constant-time comparison of the digests (``hmac.compare_digest``).

What this protects: the blind page of the app, where a rater's saved scores, the save form and the "packet
submitted: the models" reveal now need the rater's token. What it does not: anyone who can read ``data/ratings/`` or
``data/blind/keys/`` on disk can read every score and key; those folders stay with the evaluation lead.
"""
from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
from pathlib import Path

from evalhouse import paths
from evalhouse.files import write_new, write_replace

__all__ = ["TokenExists", "tokens_dir", "token_file", "has_token", "issue", "verify"]


class TokenExists(ValueError):
    """The rater already has a token (only the lead may reissue it)."""


def tokens_dir() -> Path:
    return paths.project_dir() / "data" / "blind" / "raters"


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def token_file(rater_id: str, folder: Path | None = None) -> Path:
    """Where ``rater_id``'s token digest is kept (the name is a hash of the rater id, never the id itself)."""
    return Path(folder or tokens_dir()) / f"{_digest(rater_id)[:32]}.json"


def _read(rater_id: str, folder: Path | None) -> dict | None:
    f = token_file(rater_id, folder)
    try:
        data = json.loads(f.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    return data if data.get("rater_id") == rater_id else None


def has_token(rater_id: str, folder: Path | None = None) -> bool:
    return _read(rater_id, folder) is not None


def issue(rater_id: str, folder: Path | None = None, replace: bool = False) -> str:
    """A new token for ``rater_id``; returns it (the only time it is seen). Raises TokenExists when the rater has one
    and ``replace`` is False, ValueError for an empty rater id."""
    rater_id = (rater_id or "").strip()
    if not rater_id:
        raise ValueError("a token needs a rater name")
    token = secrets.token_urlsafe(24)
    record = {"rater_id": rater_id, "token_sha256": _digest(token),
              "issued_at": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")}
    data = (json.dumps(record, ensure_ascii=False, indent=1) + "\n").encode("utf-8")
    f = token_file(rater_id, folder)
    if replace:
        write_replace(f, data)
    else:
        try:
            write_new(f, data)
        except FileExistsError as exc:
            raise TokenExists(f"rater {rater_id!r} already has a token; the evaluation lead can reissue it with "
                              f"`evalhouse blind-token {rater_id} --reissue`") from exc
    return token


def verify(rater_id: str, token: str | None, folder: Path | None = None) -> bool:
    """True only when ``rater_id`` has a token and ``token`` is it."""
    record = _read((rater_id or "").strip(), folder)
    if record is None or not token:
        return False
    return hmac.compare_digest(record["token_sha256"], _digest(token.strip()))
