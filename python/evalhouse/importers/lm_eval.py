"""lm-evaluation-harness: the output of ``lm_eval ... --output_path DIR --log_samples``.

PATH is that folder (or the model sub-folder lm-eval writes into it, or one ``results_<date>.json``). The run is
one ``results_<date>.json`` (``config.model``, ``config.model_args``, ``config.gen_kwargs``, ``configs`` per task,
``lm_eval_version`` where written, ``results`` per task: ``<metric>,<filter>`` means) with one
``samples_<task>_<date>.jsonl`` per task beside it. A folder holding several results files is ambiguous: name one.

Per sample line (``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``, ``filtered_resps``, ``filter``,
``metrics`` and one value per metric): the input is the context (``arguments.gen_args_0.arg_0``); for
``generate_until`` the output is the generated text (``resps[0][0]``, byte-exact); for log-likelihood tasks
(``multiple_choice``) the output is the continuation with the highest log-likelihood and ``raw_output`` is the
recorded ``resps`` as JSON; the target is ``target`` (an index into the choices for multiple choice). Each metric is a
``program`` score (``<metric>`` or ``<metric>_<filter>`` when the filter is not ``none``); lines of the same
document under several filters are one response. lm-eval records no tokens, latency or cost.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from evalhouse.importers.core import LogRejected, Reply, RunLog, ToolScore

__all__ = ["read", "find_results"]

_SAMPLE_KEYS = {"doc_id", "doc", "target", "arguments", "resps", "filtered_resps", "filter", "metrics", "doc_hash",
                "prompt_hash", "target_hash"}


def find_results(path: Path) -> Path:
    """The one results_*.json named by PATH (a file, the output folder, or its model sub-folder)."""
    path = Path(path)
    if path.is_file():
        return path
    found = sorted(path.glob("results_*.json")) + sorted(path.glob("*/results_*.json"))
    if not found:
        raise LogRejected(f"{path}: no results_*.json (run lm_eval with --output_path and --log_samples)")
    if len(found) > 1:
        raise LogRejected(f"{path}: several lm-eval runs ({', '.join(str(f) for f in found)}); name one "
                          f"results_*.json")
    return found[0]


def _stamp(results: Path) -> str:
    m = re.match(r"results_(.+)\.json$", results.name)
    if not m:
        raise LogRejected(f"{results}: not an lm-eval results file name (results_<date>.json)")
    return m.group(1)


def read(path: Path) -> RunLog:
    """Read one lm-eval run (results file + its samples files) into a RunLog."""
    results_path = find_results(path)
    stamp = _stamp(results_path)
    try:
        doc = json.loads(results_path.read_bytes())
    except json.JSONDecodeError as exc:
        raise LogRejected(f"{results_path}: not valid JSON ({exc.msg}: line {exc.lineno} column {exc.colno}); is "
                          "the file truncated?") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), dict) or "config" not in doc:
        raise LogRejected(f"{results_path}: not an lm-eval results file (no 'results' and 'config')")
    config = doc.get("config") or {}
    model = config.get("model") or doc.get("model_name") or "unknown"
    args = config.get("model_args")
    if isinstance(args, dict):
        args = ",".join(f"{k}={v}" for k, v in args.items())
    if args:
        model = f"{model} ({args})"
    tool_version = doc.get("lm_eval_version") or (doc.get("config") or {}).get("lm_eval_version")
    tasks = sorted(t for t in doc["results"] if t in (doc.get("configs") or {}))
    settings = {"model_args": config.get("model_args"), "gen_kwargs": config.get("gen_kwargs"),
                "batch_size": config.get("batch_size"), "random_seed": config.get("random_seed"),
                "n_shot": doc.get("n-shot"), "task_versions": doc.get("versions")}
    settings = {k: v for k, v in settings.items() if v not in (None, {}, "", [])}
    replies: list[Reply] = []
    sources = [results_path]
    unknown: set[str] = set()
    for task in tasks:
        sample_file = results_path.parent / f"samples_{task}_{stamp}.jsonl"
        if not sample_file.is_file():
            raise LogRejected(f"{results_path}: task {task!r} has no samples file {sample_file.name} (run lm_eval "
                              f"with --log_samples)")
        sources.append(sample_file)
        output_type = (doc["configs"][task] or {}).get("output_type")
        by_doc: dict = {}
        with open(sample_file, encoding="utf-8") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    s = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise LogRejected(f"{sample_file}:{n}: not valid JSON ({exc.msg}: column {exc.colno}); is the file "
                                      f"truncated?") from None
                if not isinstance(s, dict):
                    raise LogRejected(f"{sample_file}: line {n}: a sample must be a JSON object")
                ref = f"{sample_file.name}:{n} (doc_id {s.get('doc_id')})"
                if "resps" not in s or not s["resps"]:
                    raise LogRejected(f"{sample_file}: line {n} (doc_id {s.get('doc_id')}): the sample has no "
                                      f"output (no resps)")
                try:
                    extra = {k for k in s if k not in _SAMPLE_KEYS and k not in (s.get("metrics") or [])}
                    unknown |= {f"sample.{k}" for k in extra}
                    key = s.get("doc_id")
                    if key in by_doc:
                        by_doc[key].scores += _scores(s)
                        continue
                    by_doc[key] = _reply(s, ref, task, model if len(tasks) == 1 else f"{model} | {task}",
                                         output_type, sample_file)
                except LogRejected:
                    raise
                except (TypeError, AttributeError, ValueError, IndexError, KeyError) as exc:
                    raise LogRejected(f"{sample_file}: line {n} (doc_id {s.get('doc_id')}): not shaped as an "
                                      f"lm-eval sample ({type(exc).__name__}: {exc})") from None
                if extra:
                    by_doc[key].metadata["unknown"] = {k: s[k] for k in extra}
        replies += by_doc.values()
    eval_id = f"{doc.get('model_name_sanitized') or model}/{stamp}"
    log = RunLog("lm-eval", tool_version, eval_id, ",".join(tasks) if len(tasks) > 1 else (tasks[0] if tasks else None),
                 replies, settings=settings, unknown_fields=unknown, default_label=f"lm-eval-{stamp}")
    log.source_files = sources
    return log


def _scores(s: dict) -> list[ToolScore]:
    flt = s.get("filter") or "none"
    out = []
    for m in s.get("metrics") or []:
        if m in s and isinstance(s[m], (int, float, bool)):
            out.append(ToolScore(m if flt == "none" else f"{m}_{flt}", s[m], "program"))
    return out


def _reply(s: dict, ref: str, task: str, model: str, output_type: str | None, sample_file: Path) -> Reply:
    args = s.get("arguments") or {}
    first = args.get("gen_args_0") if isinstance(args, dict) else (args[0] if args else None)
    if isinstance(first, dict):
        context = first.get("arg_0")
    elif isinstance(first, list):
        context = first[0]
    else:
        context = None
    if not isinstance(context, str):
        raise LogRejected(f"{sample_file}: {ref}: no input (arguments.gen_args_0.arg_0)")
    resps = s["resps"]
    target = s.get("target")
    raw = None
    if output_type in ("multiple_choice", "loglikelihood"):
        conts = [(a.get("arg_1") if isinstance(a, dict) else a[1]) for a in
                 (args.values() if isinstance(args, dict) else args)]
        lls = [float(r[0][0] if isinstance(r[0], list) else r[0]) for r in resps]
        best = max(range(len(lls)), key=lambda i: lls[i])
        output = conts[best].strip() if best < len(conts) else ""
        raw = json.dumps(resps)
        if isinstance(target, str) and target.isdigit():
            target = int(target)
        if isinstance(target, int) and 0 <= target < len(conts):
            target = conts[target].strip()
    else:
        first_resp = resps[0]
        output = first_resp[0] if isinstance(first_resp, list) else first_resp
        if not isinstance(output, str):
            raise LogRejected(f"{sample_file}: {ref}: the sample has no text output")
    targets = [] if target in (None, "") else [str(x) for x in target] if isinstance(target, list) else [str(target)]
    reply = Reply(ref=ref, input_text=context, output=output, model=model, targets=targets, repetition=1,
                  sample_id=str(s.get("doc_id")), task_name=task,
                  metadata={k: v for k, v in {"doc": s.get("doc"), "filtered_resps": s.get("filtered_resps"),
                                              "output_type": output_type}.items() if v is not None},
                  scores=_scores(s))
    reply.raw_output = raw
    return reply
