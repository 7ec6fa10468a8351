"""One chat-completions call to an OpenAI-compatible endpoint, with bounded retries.

Endpoint and key come from the environment: ``EVALHOUSE_JUDGE_BASE_URL`` and ``EVALHOUSE_JUDGE_API_KEY``, else
``OPENAI_BASE_URL`` and ``OPENAI_API_KEY`` (the official client's variables). The base URL includes the API version
path (``https://host/v1``); the call is ``POST {base}/chat/completions``.

Retries: HTTP 429, any 5xx, a timeout or a connection error is retried up to ``max_retries`` times, waiting
``backoff_base * 2**attempt`` seconds (capped at ``backoff_max``; a ``Retry-After`` header in seconds is honoured
within the same cap). Any other status (400, 401, ...) is not retried.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass

import httpx

__all__ = ["Endpoint", "ChatResult", "endpoint_from_env", "chat", "FATAL_STATUSES"]

RETRY_STATUSES = frozenset({429}) | frozenset(range(500, 600))
FATAL_STATUSES = frozenset({401, 403, 404})  # wrong key, no access, wrong URL or model: stop the run


@dataclass(frozen=True)
class Endpoint:
    base_url: str
    api_key: str | None


@dataclass
class ChatResult:
    """Outcome of one call. ``body`` is the parsed response JSON of an HTTP 200, else None.

    ``error`` explains a failure without a usable response (HTTP status, timeout); ``attempts`` counts tries;
    ``latency_ms`` is the wall time of the successful try (None on failure); ``status`` is the last HTTP status."""

    body: dict | None
    error: str | None
    attempts: int
    latency_ms: int | None
    status: int | None = None


class EndpointMissing(RuntimeError):
    """No base URL in the environment."""


def endpoint_from_env(env: dict | None = None) -> Endpoint:
    """Base URL and key from EVALHOUSE_JUDGE_* else OPENAI_*; raises EndpointMissing without a base URL."""
    env = os.environ if env is None else env
    base = env.get("EVALHOUSE_JUDGE_BASE_URL") or env.get("OPENAI_BASE_URL")
    key = env.get("EVALHOUSE_JUDGE_API_KEY") or env.get("OPENAI_API_KEY")
    if not base:
        raise EndpointMissing("set EVALHOUSE_JUDGE_BASE_URL (or OPENAI_BASE_URL) to the endpoint, e.g. "
                              "https://api.openai.com/v1, and EVALHOUSE_JUDGE_API_KEY (or OPENAI_API_KEY)")
    return Endpoint(base.rstrip("/"), key or None)


def _wait(attempt: int, response: httpx.Response | None, base: float, cap: float) -> float:
    delay = base * (2 ** attempt)
    if response is not None:
        try:
            delay = max(delay, float(response.headers.get("retry-after", "")))
        except ValueError:
            pass
    return min(delay, cap)


def chat(client: httpx.Client, endpoint: Endpoint, payload: dict, *, timeout: float = 60.0, max_retries: int = 4,
         backoff_base: float = 1.0, backoff_max: float = 30.0, sleep=time.sleep) -> ChatResult:
    """POST ``payload`` to ``{base}/chat/completions``; retry 429 / 5xx / timeouts / connection errors.

    Never raises for HTTP or network problems: a failure is a ChatResult with ``error`` set."""
    headers = {"Content-Type": "application/json"}
    if endpoint.api_key:
        headers["Authorization"] = f"Bearer {endpoint.api_key}"
    url = f"{endpoint.base_url}/chat/completions"
    error, status = None, None
    for attempt in range(max_retries + 1):
        response = None
        start = time.perf_counter()
        try:
            response = client.post(url, json=payload, headers=headers, timeout=timeout)
        except httpx.TimeoutException:
            error, status = f"timed out after {timeout:g} s", None
        except httpx.TransportError as exc:
            error, status = f"connection error: {type(exc).__name__}: {exc}", None
        else:
            status = response.status_code
            if status == 200:
                latency_ms = round((time.perf_counter() - start) * 1000)
                try:
                    body = response.json()
                except ValueError:
                    return ChatResult(None, f"HTTP 200 with a body that is not JSON: {response.text[:200]!r}",
                                      attempt + 1, None, status)
                if not isinstance(body, dict):
                    return ChatResult(None, "HTTP 200 with a JSON body that is not an object", attempt + 1, None,
                                      status)
                return ChatResult(body, None, attempt + 1, latency_ms, status)
            error = f"HTTP {status}: {response.text[:200]}"
            if status not in RETRY_STATUSES:
                return ChatResult(None, error, attempt + 1, None, status)
        if attempt < max_retries:
            sleep(_wait(attempt, response, backoff_base, backoff_max))
    return ChatResult(None, f"{error} (gave up after {max_retries + 1} attempts)", max_retries + 1, None, status)
