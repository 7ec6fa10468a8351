"""OpenTelemetry traces of LLM calls: OTLP JSON (one ``{"resourceSpans": [...]}`` document, or one per line as
the OpenTelemetry Collector's file exporter writes) with GenAI semantic-convention span attributes.

A span is one LLM call when it has ``gen_ai.operation.name`` or ``gen_ai.request.model``. Read per span:
model ``gen_ai.request.model`` (else ``gen_ai.response.model``); input ``gen_ai.input.messages`` (JSON list of
``{role, parts: [{type: text, content}]}``; ``gen_ai.system_instructions`` is kept in metadata), else the older
``gen_ai.prompt`` / ``gen_ai.prompt.<n>.content`` attributes; output ``gen_ai.output.messages`` (text parts of the
first message), else ``gen_ai.completion`` / ``gen_ai.completion.0.content``; tokens ``gen_ai.usage.input_tokens``
/ ``output_tokens`` (older ``prompt_tokens`` / ``completion_tokens``); latency = end - start of the span;
generation settings ``gen_ai.request.*`` into metadata. Cost has no GenAI attribute: ``gen_ai.usage.cost`` (USD)
is read when a tool writes it. ``gen_ai.evaluation.result`` span events (``gen_ai.evaluation.name``,
``gen_ai.evaluation.score.value`` / ``score.label``, ``gen_ai.evaluation.explanation``) become scores. Other
``gen_ai.*`` attributes are kept in metadata and reported. The same input to the same model twice is repetition 2.
"""
from __future__ import annotations

import json
from pathlib import Path

from evalhouse.importers.core import LogRejected, Reply, RunLog, ToolScore

__all__ = ["read"]

_KNOWN = {"gen_ai.operation.name", "gen_ai.provider.name", "gen_ai.system", "gen_ai.request.model",
          "gen_ai.response.model", "gen_ai.input.messages", "gen_ai.output.messages", "gen_ai.system_instructions",
          "gen_ai.prompt", "gen_ai.completion", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
          "gen_ai.usage.prompt_tokens", "gen_ai.usage.completion_tokens", "gen_ai.usage.cost", "gen_ai.response.id",
          "gen_ai.response.finish_reasons", "gen_ai.conversation.id"}


def _value(v: dict):
    """An OTLP AnyValue as a Python value."""
    if not isinstance(v, dict):
        return v
    for k in ("stringValue", "boolValue", "doubleValue"):
        if k in v:
            return v[k]
    if "intValue" in v:
        return int(v["intValue"])
    if "arrayValue" in v:
        return [_value(x) for x in (v["arrayValue"].get("values") or [])]
    if "kvlistValue" in v:
        return {kv["key"]: _value(kv.get("value")) for kv in (v["kvlistValue"].get("values") or [])}
    return None


def _attrs(items) -> dict:
    return {a["key"]: _value(a.get("value")) for a in items or [] if isinstance(a, dict) and "key" in a}


def _documents(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    try:
        doc = json.loads(text)
        return [doc]
    except json.JSONDecodeError as whole:
        docs = []
        for n, line in enumerate(text.split("\n"), start=1):
            if line.strip():
                try:
                    docs.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise LogRejected(f"{path}:{n}: not valid JSON ({exc.msg}: column {exc.colno}); is the file "
                                      f"truncated? (as one document: {whole.msg})") from None
        return docs


def _messages_text(raw) -> str | None:
    if raw is None:
        return None
    msgs = json.loads(raw) if isinstance(raw, str) else raw
    if not isinstance(msgs, list):
        return str(msgs)
    lines = []
    for m in msgs:
        parts = m.get("parts") or ([{"type": "text", "content": m.get("content")}] if "content" in m else [])
        text = "".join(p.get("content") or "" for p in parts if p.get("type", "text") == "text")
        lines.append((m.get("role") or "user", text))
    if len(lines) == 1 and lines[0][0] == "user":
        return lines[0][1]
    return "\n".join(f"{r}: {t}" for r, t in lines)


def read(path: Path) -> RunLog:
    """Read OTLP JSON traces into a RunLog (one reply per GenAI span)."""
    path = Path(path)
    docs = _documents(path)
    replies, unknown, services = [], set(), set()
    seen: dict[tuple, int] = {}
    for d, doc in enumerate(docs, start=1):
        if not isinstance(doc, dict) or "resourceSpans" not in doc:
            raise LogRejected(f"{path}: document {d} is not OTLP JSON traces (no resourceSpans)")
        for rs in doc["resourceSpans"]:
            res = _attrs((rs.get("resource") or {}).get("attributes"))
            if res.get("service.name"):
                services.add(str(res["service.name"]))
            for ss in rs.get("scopeSpans") or rs.get("instrumentationLibrarySpans") or []:
                for span in ss.get("spans") or []:
                    a = _attrs(span.get("attributes"))
                    if "gen_ai.operation.name" not in a and "gen_ai.request.model" not in a:
                        continue
                    replies.append(_reply(path, span, a, seen, unknown))
    if not replies:
        raise LogRejected(f"{path}: no GenAI spans (no span has gen_ai.operation.name or gen_ai.request.model)")
    service = ",".join(sorted(services)) or None
    return RunLog("otlp", None, service, None, replies, unknown_fields=unknown,
                  default_label=f"otlp-{service}" if service else None)


def _reply(path: Path, span: dict, a: dict, seen: dict, unknown: set) -> Reply:
    ref = f"span {span.get('spanId')} ({span.get('name')})"
    model = a.get("gen_ai.request.model") or a.get("gen_ai.response.model")
    if not model:
        raise LogRejected(f"{path}: {ref}: no gen_ai.request.model")
    try:
        text_in = _messages_text(a.get("gen_ai.input.messages"))
        text_out = _messages_text(a.get("gen_ai.output.messages"))
    except (json.JSONDecodeError, AttributeError, TypeError) as exc:
        raise LogRejected(f"{path}: {ref}: gen_ai.input/output.messages is not a JSON list of messages "
                          f"({exc})") from None
    if text_in is None:
        text_in = a.get("gen_ai.prompt") or a.get("gen_ai.prompt.0.content")
    if text_out is None:
        text_out = a.get("gen_ai.completion") or a.get("gen_ai.completion.0.content")
    if text_in is None:
        raise LogRejected(f"{path}: {ref}: no input (gen_ai.input.messages)")
    if text_out is None:
        raise LogRejected(f"{path}: {ref}: the call has no output (gen_ai.output.messages)")
    settings = {k[len("gen_ai.request."):]: v for k, v in a.items()
                if k.startswith("gen_ai.request.") and k != "gen_ai.request.model"}
    extra = {k: v for k, v in a.items() if k.startswith("gen_ai.") and k not in _KNOWN
             and not k.startswith("gen_ai.request.") and not k.startswith("gen_ai.prompt.")
             and not k.startswith("gen_ai.completion.")}
    unknown |= set(extra)
    key = (model, text_in)
    seen[key] = seen.get(key, 0) + 1
    start, end = span.get("startTimeUnixNano"), span.get("endTimeUnixNano")
    latency = (int(end) - int(start)) / 1e6 if start and end else None
    n_in = a.get("gen_ai.usage.input_tokens", a.get("gen_ai.usage.prompt_tokens"))
    n_out = a.get("gen_ai.usage.output_tokens", a.get("gen_ai.usage.completion_tokens"))
    cost = a.get("gen_ai.usage.cost")
    scores = []
    for ev in span.get("events") or []:
        if ev.get("name") != "gen_ai.evaluation.result":
            continue
        e = _attrs(ev.get("attributes"))
        value = e.get("gen_ai.evaluation.score.value")
        if value is None:
            label = str(e.get("gen_ai.evaluation.score.label", "")).lower()
            value = {"pass": True, "passed": True, "true": True, "fail": False, "failed": False,
                     "false": False}.get(label)
        if value is None or not e.get("gen_ai.evaluation.name"):
            continue
        scores.append(ToolScore(str(e["gen_ai.evaluation.name"]), value, "program",
                                reason=e.get("gen_ai.evaluation.explanation")))
    meta = {"trace_id": span.get("traceId"), "span_id": span.get("spanId"),
            "operation": a.get("gen_ai.operation.name"), "provider": a.get("gen_ai.provider.name")
            or a.get("gen_ai.system"), "generate_config": settings or None,
            "system_instructions": a.get("gen_ai.system_instructions"), "response_id": a.get("gen_ai.response.id"),
            "finish_reasons": a.get("gen_ai.response.finish_reasons"), "unknown": extra or None}
    return Reply(ref=ref, input_text=str(text_in), output=str(text_out), model=str(model), repetition=seen[key],
                 sample_id=span.get("spanId"), input_tokens=int(n_in) if n_in is not None else None,
                 output_tokens=int(n_out) if n_out is not None else None, latency_ms=latency,
                 cost=float(cost) if cost is not None else None, cost_currency="USD" if cost is not None else None,
                 metadata={k: v for k, v in meta.items() if v is not None}, scores=scores)
