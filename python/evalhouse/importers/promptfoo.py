"""promptfoo: the results file of ``promptfoo eval -o results.json`` (or ``-o results.jsonl``, one result a line).

Format (promptfoo's documented output, results ``version`` 2 and 3): ``{"evalId", "results": {"version",
"timestamp", "prompts", "results": [EvaluateResult...], "stats"}, "config", "metadata": {"promptfooVersion"}}``.
Each EvaluateResult has ``prompt.raw`` (the rendered prompt: the item's input), ``provider`` (``id``, ``label``),
``vars``, ``testCase`` (``vars``, ``assert``, ``metadata``, ``description``), ``response`` (``output``,
``tokenUsage`` {prompt, completion, total}, ``cost``, ``latencyMs``), ``success``, ``score``, ``latencyMs``,
``cost``, ``gradingResult`` (``componentResults``: one per assertion with ``pass``, ``score``, ``reason`` and the
``assertion``) and ``error``.

Mapping: system_id = the provider's label, else its id (plus `` | <prompt label>`` when the file has several
prompts); repetition = the n-th result of the same prompt, provider and input (``--repeat``); the target = the
``value`` of the first ``equals`` / ``contains`` / ``icontains`` assertion, else ``vars.target`` / ``vars.expected``
/ ``vars.answer``. Scores: ``pass`` = promptfoo's own ``success`` (program), one per assertion, named by its
``metric`` or its type (model-graded types are ``judge`` with the grader as judge_model and its reason). Results with
an ``error`` and no output are a rejected sample (promptfoo's ``failureReason`` 2).

A ``.json`` file is one JSON document (~4 KB per result): it is memory-mapped and split with msgspec into its parts
without decoding them, and each result is decoded, mapped and dropped in turn, so no decoded copy of the whole
document is held (a file msgspec does not take as it stands, such as one with a NaN, is read whole with json).
"""
from __future__ import annotations

import contextlib
import json
import mmap
from pathlib import Path
from typing import Any

import msgspec

from evalhouse.importers.core import LogRejected, Reply, RunLog, ToolScore, read_json_log

__all__ = ["read", "KNOWN_VERSIONS", "MODEL_GRADED"]

KNOWN_VERSIONS = (2, 3)
MODEL_GRADED = {"llm-rubric", "model-graded-closedqa", "model-graded-factuality", "factuality", "g-eval",
                "answer-relevance", "context-faithfulness", "context-recall", "context-relevance", "select-best",
                "search-rubric", "conversation-relevance", "pi", "classifier", "moderation"}
_RESULT_KEYS = {"id", "promptIdx", "testIdx", "testCase", "promptId", "provider", "prompt", "vars", "response",
                "error", "failureReason", "success", "score", "latencyMs", "gradingResult", "namedScores", "cost",
                "metadata", "tokenUsage", "description"}
_RESPONSE_KEYS = {"output", "tokenUsage", "cost", "cached", "latencyMs", "raw", "metadata", "isRefusal",
                  "finishReason", "logProbs", "error", "guardrails", "sessionId"}
_TARGET_TYPES = ("equals", "contains", "icontains", "starts-with")
_TARGET_VARS = ("target", "expected", "answer", "reference")


def read(path: Path) -> RunLog:
    """Read a promptfoo results file (.json or .jsonl) into a RunLog."""
    path = Path(path)
    version, eval_id, tool_version, settings = None, None, None, {}
    if path.suffix.lower() == ".jsonl":
        results = []
        with open(path, encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    results.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    raise LogRejected(f"{path}:{n}: not valid JSON ({exc.msg}: column {exc.colno}); is the file "
                                      "truncated?") from None
        return _read_results(path, results, [_prompt_label(r) for r in results if isinstance(r, dict)], None, None,
                             None, {}, set())
    with open(path, "rb") as fh, _mapped(fh) as data:
        try:
            return _read_split(path, data)
        except msgspec.MsgspecError:
            pass  # not laid out as the fast path reads it (or not strict JSON): read whole, as json reads it
    doc = read_json_log(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), dict):
        raise LogRejected(f"{path}: not a promptfoo results file (no 'results' object)")
    body = doc["results"]
    version = body.get("version")
    if version not in KNOWN_VERSIONS:
        raise LogRejected(f"{path}: unknown promptfoo results version {version!r} (this importer reads "
                          f"{', '.join(map(str, KNOWN_VERSIONS))})")
    results = body.get("results")
    if not isinstance(results, list):
        raise LogRejected(f"{path}: results.results is not a list")
    eval_id = doc.get("evalId")
    tool_version = (doc.get("metadata") or {}).get("promptfooVersion")
    desc = (doc.get("config") or {}).get("description")
    settings = {"promptfoo_description": desc} if desc else {}
    unknown_top = {f"results.{k}" for k in body if k not in _BODY_KEYS}
    return _read_results(path, results, [_prompt_label(r) for r in results if isinstance(r, dict)], version,
                         eval_id, tool_version, settings, unknown_top)


_BODY_KEYS = {"version", "timestamp", "prompts", "results", "stats"}
_SPLIT = msgspec.json.Decoder(dict[str, msgspec.Raw])  # an object's fields, values left as bytes
_LIST = msgspec.json.Decoder(list[msgspec.Raw])  # an array's elements, left as bytes
_VALUE = msgspec.json.Decoder()


class _Prompt(msgspec.Struct):
    """A result's ``prompt`` alone (its other fields are skipped unread)."""
    prompt: Any = None


_PROMPT = msgspec.json.Decoder(_Prompt)


@contextlib.contextmanager
def _mapped(fh):
    """The file's bytes, memory-mapped (read-only; a results file of 1M rows is ~4 GB)."""
    try:
        m = mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ)
    except ValueError:  # an empty file cannot be mapped
        yield b""
        return
    try:
        yield m
    finally:
        try:
            m.close()
        except BufferError:  # an exception's traceback still holds parts of it: unmapped when that is freed
            pass


def _read_split(path: Path, data) -> RunLog:
    """The results file in one pass that keeps no decoded copy of the whole document: msgspec splits the object
    into its fields and ``results.results`` into its elements without decoding them (``Raw``), and each result is
    decoded on its own, mapped and dropped. Values are those ``json.loads`` gives: msgspec reads strict JSON to the
    same values and raises on anything else (NaN, a file that is not an object, ...), which the caller then reads
    with json."""
    doc = _SPLIT.decode(data)
    if "results" not in doc:
        raise msgspec.ValidationError("no results")
    body = _SPLIT.decode(doc["results"])
    version = _VALUE.decode(body["version"]) if "version" in body else None
    if version not in KNOWN_VERSIONS:
        raise LogRejected(f"{path}: unknown promptfoo results version {version!r} (this importer reads "
                          f"{', '.join(map(str, KNOWN_VERSIONS))})")
    if "results" not in body:
        raise msgspec.ValidationError("no results.results")
    results = _LIST.decode(body["results"])
    value = {k: _VALUE.decode(v) for k, v in doc.items() if k in ("evalId", "metadata", "config")}
    eval_id = value.get("evalId")
    tool_version = (value.get("metadata") or {}).get("promptfooVersion")
    desc = (value.get("config") or {}).get("description")
    settings = {"promptfoo_description": desc} if desc else {}
    unknown_top = {f"results.{k}" for k in body if k not in _BODY_KEYS}
    labels = []
    for raw in results:
        try:
            labels.append(_prompt_label({"prompt": _PROMPT.decode(raw).prompt}))
        except msgspec.ValidationError:
            pass  # not an object: rejected below
    del doc, body
    return _read_results(path, _decoded(results), labels, version, eval_id, tool_version, settings, unknown_top)


def _decoded(results: list):
    """Each result's value, one at a time (json for one that msgspec does not take as it stands)."""
    for k in range(len(results)):
        raw, results[k] = results[k], None
        try:
            yield _VALUE.decode(raw)
        except msgspec.MsgspecError:
            yield json.loads(bytes(raw))


def _read_results(path: Path, results, labels: list[str], version, eval_id, tool_version, settings: dict,
                  unknown_top: set[str]) -> RunLog:
    """The results (a list, or an iterator of them) as replies; ``labels``: the prompt label of each result that
    is an object."""
    n_prompts = len(set(labels))
    replies, unknown = [], set(unknown_top)
    seen: dict[tuple, int] = {}
    refs_by_id: dict[str, str] = {}  # promptfoo gives every result its own id (a repeat too)
    for k, r in enumerate(results):
        ref = _ref(r, k)
        if not isinstance(r, dict):
            raise LogRejected(f"{path}: {ref}: a result must be a JSON object")
        rid = r.get("id")
        if isinstance(rid, str) and rid:
            if rid in refs_by_id:
                raise LogRejected(f"{path}: {ref}: the same result as {refs_by_id[rid]} (id {rid}): each result "
                                  "appears once in a promptfoo results file (was a result copied, or two files "
                                  "joined?)")
            refs_by_id[rid] = ref
        try:
            reply, extra = _reply(path, r, ref, n_prompts, seen)
        except LogRejected:
            raise
        except (TypeError, AttributeError, ValueError) as exc:  # a field of another type than promptfoo writes
            raise LogRejected(f"{path}: {ref}: not shaped as a promptfoo result ({type(exc).__name__}: {exc})") \
                from None
        unknown |= {k if k.startswith("response.") else f"result.{k}" for k in extra}
        replies.append(reply)
    tool_version = tool_version or None
    return RunLog("promptfoo", tool_version, eval_id, None, replies, settings=settings, unknown_fields=unknown,
                  default_label=f"promptfoo-{eval_id}" if eval_id else None)


def _reply(path: Path, r: dict, ref: str, n_prompts: int, seen: dict[tuple, int]) -> tuple[Reply, dict]:
    """One result as a Reply, and its fields this importer does not map (kept in metadata)."""
    resp = r.get("response") or {}
    extra = {key: r[key] for key in r if key not in _RESULT_KEYS}
    extra.update({f"response.{key}": resp[key] for key in resp if key not in _RESPONSE_KEYS})
    prompt = r.get("prompt") or {}
    raw_prompt = prompt.get("raw")
    if not isinstance(raw_prompt, str):
        raise LogRejected(f"{path}: {ref}: no prompt.raw (the rendered prompt)")
    output = resp.get("output")
    if output is None:
        # promptfoo's `error` holds a provider's error, or an assertion's failure reason: quoted as the field it is
        raise LogRejected(f"{path}: {ref}: no output (response.output missing"
                          + (f"; the result's error field: {str(r.get('error'))[:200]!r}" if r.get("error") else "")
                          + ")")
    if not isinstance(output, str):
        output = json.dumps(output, ensure_ascii=False)
    provider = r.get("provider") or {}
    if isinstance(provider, str):
        provider = {"id": provider}
    model = str(provider.get("label") or provider.get("id") or "unknown")
    if n_prompts > 1:
        model = f"{model} | {_prompt_label(r)}"
    key = (model, raw_prompt)
    seen[key] = seen.get(key, 0) + 1
    tc = r.get("testCase") or {}
    vars_ = r.get("vars") or tc.get("vars") or {}
    usage = resp.get("tokenUsage") or r.get("tokenUsage") or {}
    cost = resp.get("cost", r.get("cost"))
    scores = [ToolScore("pass", bool(r.get("success")), "program",
                        reason=(r.get("gradingResult") or {}).get("reason"))]
    scores += _assertion_scores(r, ref, path)
    return Reply(
        ref=ref, input_text=raw_prompt, output=output, model=model, targets=_targets(tc, vars_),
        repetition=seen[key], sample_id=tc.get("description"),
        task_name=None, input_tokens=_int(usage.get("prompt")), output_tokens=_int(usage.get("completion")),
        total_tokens=_int(usage.get("total")), latency_ms=_num(r.get("latencyMs", resp.get("latencyMs"))),
        cost=_num(cost) if cost is not None and not (cost == 0 and not usage) else None,
        cost_currency="USD" if cost is not None else None,
        metadata={k: v for k, v in {"provider_id": provider.get("id"), "provider_config": provider.get("config"),
                                    "prompt_label": prompt.get("label"), "vars": vars_,
                                    "test_metadata": tc.get("metadata"), "cached": resp.get("cached"),
                                    "promptfoo_score": r.get("score"), "unknown": extra}.items()
                  if v not in (None, {}, "")},
        scores=scores), extra


def _prompt_label(r: dict) -> str:
    p = r.get("prompt") or {}
    return str(p.get("label") or p.get("raw") or "") if isinstance(p, dict) else ""


def _ref(r, k: int) -> str:
    if isinstance(r, dict):
        tc = r.get("testCase")
        desc = tc.get("description") if isinstance(tc, dict) else None
        return f"result {k + 1} (testIdx {r.get('testIdx')}" + (f", {desc!r})" if desc else ")")
    return f"result {k + 1}"


def _int(v):
    return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _num(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _targets(tc: dict, vars_: dict) -> list[str]:
    for a in tc.get("assert") or []:
        if isinstance(a, dict) and a.get("type") in _TARGET_TYPES and isinstance(a.get("value"), (str, int, float)):
            value = str(a["value"])
            if "{{" not in value:
                return [value]
            break
    for name in _TARGET_VARS:
        if name in vars_ and vars_[name] not in (None, ""):
            v = vars_[name]
            return [str(x) for x in v] if isinstance(v, list) else [str(v)]
    return []


def _assertion_scores(r: dict, ref: str, path: Path) -> list[ToolScore]:
    grading = r.get("gradingResult") or {}
    by_name: dict[str, ToolScore] = {}
    for c in grading.get("componentResults") or []:
        a = c.get("assertion") or {}
        kind_name = a.get("type") or "assertion"
        name = a.get("metric") or kind_name
        judge = kind_name.replace("not-", "") in MODEL_GRADED
        grader = a.get("provider") or ((r.get("testCase") or {}).get("options") or {}).get("provider")
        if isinstance(grader, dict):
            grader = grader.get("id") or (grader.get("options") or {}).get("id") or grader.get("label")
        s = ToolScore(name, bool(c.get("pass")), "judge" if judge else "program", reason=c.get("reason"),
                      judge_model=(grader or "promptfoo-default-grader") if judge else None,
                      metadata={"score": c.get("score"), "assertion_type": kind_name})
        if name in by_name:  # the same assertion type twice on one test: passes when both pass
            old = by_name[name]
            old.value = old.value and s.value
            old.reason = "; ".join(filter(None, [old.reason, s.reason]))
        else:
            by_name[name] = s
    return list(by_name.values())
