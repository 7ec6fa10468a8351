"""Plan and run a judge over a suite: rubric scoring (one call per reply) or pairwise comparison (one call per
pair and shown order), through the cache, a concurrency limit and a budget cap, into the append-only stores.

Rubric mode: every reply with text of the suite (optionally only some items or model runs) is scored on every
criterion of the rubric version in one call; the verdict becomes one ratings-store row per criterion with
rater_kind 'judge' and rater_id ``judge:<model>``. A failed call (no answer after retries, or an answer that is not
a valid verdict) becomes one row per criterion with an empty score, the failure reason and the raw reply; the
scoring chain counts it as a missing score.

Pairwise mode: for every item, each pair of model runs (first repetition of each; sorted by model run, A the
first; with ``baseline`` only baseline-vs-other pairs, A = baseline) is judged once in a shown order drawn from
the seed, or with ``both_orders`` twice (A first, then B first). Each judgement is one comparisons-store row.
Combining the two orders follows FastChat's rule (``combine_orders``): the same winner in both orders wins,
anything else (a flip, or a tie in one order) is a tie.

A rerun skips every call whose answer is already stored (same reply or pair and shown order, judge, prompt hash,
temperature and seed); calls that failed without an answer are tried again. A call found in the cache costs
nothing and is not sent.
"""
from __future__ import annotations

import csv
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import httpx

from evalhouse.judge import comparisons, prompts
from evalhouse.judge.cache import JudgeCache, call_key
from evalhouse.judge.client import FATAL_STATUSES, ChatResult, Endpoint, chat
from evalhouse.judge.pricing import Price, call_cost, estimate_tokens, max_input_tokens
from evalhouse.ratings import store

__all__ = ["JudgeConfig", "Call", "RunReport", "JudgeError", "load_rubric", "plan", "check_rater_kind", "estimate",
           "run", "combine_orders", "pair_preference"]


class JudgeError(ValueError):
    """The run cannot start (unknown suite or rubric, a budget without a price...); nothing was called."""


@dataclass
class JudgeConfig:
    suite: str
    judge_model: str
    rubric_id: str | None = None
    rubric_version: int | None = None
    pairwise: bool = False
    both_orders: bool = False
    baseline: str | None = None
    items: list[str] | None = None
    systems: list[str] | None = None
    temperature: float = 0.0
    seed: int = 0
    max_tokens: int = 512
    json_mode: bool = True
    concurrency: int = 4
    budget: Decimal | None = None
    timeout: float = 60.0
    max_retries: int = 4
    backoff_base: float = 1.0
    backoff_max: float = 30.0

    @property
    def rater_id(self) -> str:
        return f"judge:{self.judge_model}"


@dataclass
class Call:
    """One planned call. Rubric: ``response_id`` and ``criteria``; pairwise: the pair and ``shown_first``."""

    kind: str
    suite: str
    item_id: str
    payload: dict
    prompt_hash: str
    key: str
    est_input_tokens: int
    max_input_tokens: int
    response_id: str = ""
    criteria: list = field(default_factory=list)
    rubric_id: str = ""
    rubric_version: int | None = None
    response_id_a: str = ""
    response_id_b: str = ""
    shown_first: str = ""


@dataclass
class RunReport:
    planned: int = 0
    already_stored: int = 0
    skipped_no_text: int = 0
    cache_hits: int = 0
    sent: int = 0
    http_attempts: int = 0
    failed: int = 0
    not_run: int = 0
    spent: Decimal = Decimal(0)
    spent_unknown: int = 0
    stopped: str | None = None
    files: list[Path] = field(default_factory=list)
    verdicts: list[dict] = field(default_factory=list)


# ---------------------------------------------------------------------------------------------------- planning


def load_rubric(con, suite: str, rubric_id: str, version: int | None) -> tuple[int, list[prompts.Criterion]]:
    """(version, criteria in display order) of a suite's rubric from dim_rubric_levels; JudgeError if unknown."""
    known = [r[0] for r in con.execute(
        "select distinct rubric_id from dim_rubric_levels where suite = ? order by 1", [suite]).fetchall()]
    if rubric_id not in known:
        raise JudgeError(f"suite {suite!r} has no rubric {rubric_id!r}; known: {', '.join(known) or 'none'}")
    versions = [int(r[0]) for r in con.execute(
        "select distinct rubric_version from dim_rubric_levels where suite = ? and rubric_id = ? order by 1",
        [suite, rubric_id]).fetchall()]
    version = versions[-1] if version is None else int(version)
    if version not in versions:
        raise JudgeError(f"rubric {rubric_id!r} has no version {version}; versions: "
                         f"{', '.join(map(str, versions))}")
    rows = con.execute(
        """select criterion, min(criterion_order), min(min_score), max(max_score),
                  list(struct_pack(level := level, anchor := anchor) order by level)
           from dim_rubric_levels where suite = ? and rubric_id = ? and rubric_version = ?
           group by criterion order by 2, 1""", [suite, rubric_id, version]).fetchall()
    criteria = [prompts.Criterion(name, int(lo), int(hi),
                                  tuple((int(x["level"]), x["anchor"] or "") for x in levels))
                for name, _, lo, hi, levels in rows]
    return version, criteria


def _payload(cfg: JudgeConfig, messages: list[dict]) -> dict:
    payload = {"model": cfg.judge_model, "messages": messages, "temperature": cfg.temperature, "seed": cfg.seed,
               "max_tokens": cfg.max_tokens}
    if cfg.json_mode:
        payload["response_format"] = {"type": "json_object"}
    return payload


def _call(cfg: JudgeConfig, kind: str, suite: str, item_id: str, messages: list[dict], **kw) -> Call:
    payload = _payload(cfg, messages)
    return Call(kind, suite, item_id, payload, prompts.prompt_hash(messages), call_key(payload),
                estimate_tokens(messages), max_input_tokens(messages), **kw)


def _shown_first(seed: int, item_id: str, a: str, b: str) -> str:
    """A reproducible fair coin per pair: 'a' or 'b' from sha256(seed, item, a, b)."""
    import hashlib

    return "ab"[hashlib.sha256(f"{seed}|{item_id}|{a}|{b}".encode()).digest()[0] % 2]


def plan(con, cfg: JudgeConfig) -> tuple[list[Call], int]:
    """The calls of this run (before the store and cache are consulted) and the number of replies skipped
    because the source has no text. Raises JudgeError for an unknown suite, rubric, item or model run."""
    if con.execute("select count(*) from dim_responses where suite = ?", [cfg.suite]).fetchone()[0] == 0:
        suites = [r[0] for r in con.execute("select distinct suite from dim_responses order by 1").fetchall()]
        raise JudgeError(f"unknown suite {cfg.suite!r}; known: {', '.join(suites)}")
    criteria, version = [], None
    if cfg.rubric_id:
        version, criteria = load_rubric(con, cfg.suite, cfg.rubric_id, cfg.rubric_version)
    elif not cfg.pairwise:
        raise JudgeError("rubric scoring needs --rubric")
    items = {r[0]: (r[1], r[2]) for r in con.execute(
        "select item_id, input_text, reference_text from dim_items where suite = ?", [cfg.suite]).fetchall()}
    responses = con.execute(
        """select response_id, item_id, system_id, repetition, response_text from dim_responses
           where suite = ? order by item_id, system_id, repetition, response_id""", [cfg.suite]).fetchall()
    for name, wanted, have in (("item", cfg.items, {r[1] for r in responses}),
                               ("model run", cfg.systems, {r[2] for r in responses}),
                               ("baseline model run", [cfg.baseline] if cfg.baseline else None,
                                {r[2] for r in responses})):
        unknown = sorted(set(wanted or ()) - have)
        if unknown:
            raise JudgeError(f"unknown {name} {', '.join(map(repr, unknown))} in suite {cfg.suite!r}")
    if cfg.items:
        responses = [r for r in responses if r[1] in set(cfg.items)]
    if cfg.systems:
        keep = set(cfg.systems) | ({cfg.baseline} if cfg.baseline else set())
        responses = [r for r in responses if r[2] in keep]
    no_text = sum(1 for r in responses if r[4] is None)
    responses = [r for r in responses if r[4] is not None]
    calls: list[Call] = []
    if not cfg.pairwise:
        for rid, item, _system, _rep, text in responses:
            input_text, reference = items.get(item, (None, None))
            messages = prompts.rubric_messages(criteria, input_text, text, reference)
            calls.append(_call(cfg, "rubric", cfg.suite, item, messages, response_id=rid, criteria=criteria,
                               rubric_id=cfg.rubric_id, rubric_version=version))
        return calls, no_text
    first: dict[tuple[str, str], tuple[str, str]] = {}
    for rid, item, system, _rep, text in responses:  # ordered by repetition: keep each run's first reply
        first.setdefault((item, system), (rid, text))
    for item in sorted({k[0] for k in first}):
        systems = sorted(s for i, s in first if i == item)
        if cfg.baseline:
            pairs = [(cfg.baseline, s) for s in systems if s != cfg.baseline] if cfg.baseline in systems else []
        else:
            pairs = [(x, y) for i, x in enumerate(systems) for y in systems[i + 1:]]
        input_text, reference = items.get(item, (None, None))
        for sa, sb in pairs:
            (ra, ta), (rb, tb) = first[(item, sa)], first[(item, sb)]
            orders = ["a", "b"] if cfg.both_orders else [_shown_first(cfg.seed, item, ra, rb)]
            for shown in orders:
                one, two = (ta, tb) if shown == "a" else (tb, ta)
                messages = prompts.pairwise_messages(input_text, one, two, criteria or None, reference)
                calls.append(_call(cfg, "pairwise", cfg.suite, item, messages, response_id_a=ra, response_id_b=rb,
                                   shown_first=shown, rubric_id=cfg.rubric_id or "", rubric_version=version))
    return calls, no_text


def check_rater_kind(con, cfg: JudgeConfig, ratings_dir: Path, suites_dir: Path | None = None) -> None:
    """Raise JudgeError, before any call is made, when the judge's rater id (``judge:<model>``) already has another
    kind than judge in the suite (the store, the suite's files as they are now, the published warehouse:
    ``store.rater_kind_conflict``): a rater has one kind in a suite, and the ratings store is append-only. Pairwise
    runs write the comparisons store, which this does not concern."""
    if cfg.pairwise:
        return
    other = store.rater_kind_conflict(cfg.suite, cfg.rater_id, "judge", con=con, store_dir=ratings_dir,
                                      suites_dir=suites_dir)
    if other:
        raise JudgeError(f"rater {cfg.rater_id!r} is 'judge' here and {other[0]!r} at {other[1]}; a rater has one "
                         "kind in a suite (nothing was called; the judge's ratings need another rater id, or that "
                         "rater another id)")


def _identity(kind: str, row_or_call) -> tuple:
    g = (row_or_call.get if isinstance(row_or_call, dict) else lambda k: getattr(row_or_call, k))
    return (kind, g("response_id") if kind == "rubric" else (g("response_id_a"), g("response_id_b"), g("shown_first")),
            g("prompt_hash"))


def answered_identities(cfg: JudgeConfig, ratings_dir: Path, comparisons_dir: Path) -> set[tuple]:
    """Calls of this judge, temperature and seed already stored with an answer (ok, or malformed with raw text)."""
    def same(row: dict) -> bool:
        return (row.get("rater_id") == cfg.rater_id and row.get("rater_kind") == "judge"
                and row.get("prompt_hash") and _num(row.get("temperature")) == _num(cfg.temperature)
                and _num(row.get("seed")) == _num(cfg.seed)
                and (not row.get("failure_reason") or bool(row.get("raw_output"))))
    done: set[tuple] = set()
    if cfg.pairwise:
        done |= {_identity("pairwise", r) for r in comparisons.read_comparisons(comparisons_dir) if same(r)}
    else:
        for f in sorted(Path(ratings_dir).glob("*/*.csv")):
            with open(f, encoding="utf-8-sig", newline="") as fh:
                done |= {_identity("rubric", r) for r in csv.DictReader(fh) if same(r)}
    return done


def _num(value) -> Decimal | None:
    try:
        return Decimal(str(value))
    except Exception:
        return None


# ---------------------------------------------------------------------------------------------------- verdicts


def pair_preference(winner_slot: str, shown_first: str) -> tuple[Decimal, str]:
    """(preference that B beats A, label) from the winning slot ('A' first, 'B' second, 'tie') and the order.

    shown_first 'a': slot A is response A; 'b': slot A is response B. 0 = A wins, 0.5 = tie, 1 = B wins."""
    if winner_slot == "tie":
        return Decimal("0.5"), "tie"
    a_won = (winner_slot == "A") == (shown_first == "a")
    return (Decimal(0), "a") if a_won else (Decimal(1), "b")


def combine_orders(label_ab: str | None, label_ba: str | None) -> str | None:
    """FastChat's rule for a pair judged in both orders (labels 'a' / 'b' / 'tie' relative to the pair, not the
    slot): the same label in both orders stands; any disagreement (a flip, or a tie in one order) is a tie.
    None when either judgement failed. Source: FastChat llm_judge, show_result.py (pairwise, both orders)."""
    if label_ab is None or label_ba is None:
        return None
    return label_ab if label_ab == label_ba else "tie"


def _content(body: dict) -> str | None:
    try:
        content = body["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None


def _usage(body: dict) -> tuple[int | None, int | None]:
    usage = body.get("usage") if isinstance(body.get("usage"), dict) else {}
    def whole(v):
        return v if isinstance(v, int) and not isinstance(v, bool) and v >= 0 else None
    return whole(usage.get("prompt_tokens")), whole(usage.get("completion_tokens"))


def _text(value) -> str:
    return "" if value is None else str(value)


def _rows_for(call: Call, cfg: JudgeConfig, price: Price | None, body: dict | None, error: str | None,
              latency_ms: int | None, rated_at: str) -> tuple[list[dict], dict]:
    """Store rows for one call and a short verdict summary."""
    input_tokens, output_tokens = _usage(body) if body is not None else (None, None)
    cost = call_cost(price, input_tokens, output_tokens)
    content = _content(body) if body is not None else None
    failure, raw = error, ""
    if body is not None and content is None:
        import json

        failure, raw = "the response has no choices[0].message.content", json.dumps(body, ensure_ascii=False)
    meta = {
        "suite": call.suite, "rater_id": cfg.rater_id, "rater_kind": "judge", "rated_at": rated_at,
        "judge_model": cfg.judge_model, "prompt_hash": call.prompt_hash, "temperature": _text(cfg.temperature),
        "seed": _text(cfg.seed), "input_tokens": _text(input_tokens), "output_tokens": _text(output_tokens),
        "latency_ms": _text(latency_ms), "cost": format(cost, "f") if cost is not None else "",
        "cost_currency": "USD" if cost is not None else "",
    }
    if call.kind == "rubric":
        scores = None
        if failure is None:
            try:
                scores = prompts.parse_rubric_verdict(content, call.criteria)
            except prompts.VerdictError as exc:
                failure, raw = f"malformed verdict: {exc}", content
        rows = [{**meta, "response_id": call.response_id, "criterion": c.name, "rubric_id": call.rubric_id,
                 "rubric_version": _text(call.rubric_version), "is_blind": "false",
                 "score": _text(scores[c.name][0]) if scores else "", "reason": scores[c.name][1] if scores else "",
                 "raw_output": raw, "failure_reason": failure or ""} for c in call.criteria]
        return rows, {"kind": "rubric", "response_id": call.response_id, "failure_reason": failure,
                      "scores": {k: v[0] for k, v in scores.items()} if scores else None}
    preference, label, reason = None, None, ""
    if failure is None:
        try:
            slot, reason = prompts.parse_pairwise_verdict(content)
            preference, label = pair_preference(slot, call.shown_first)
        except prompts.VerdictError as exc:
            failure, raw = f"malformed verdict: {exc}", content
    row = {**meta, "item_id": call.item_id, "response_id_a": call.response_id_a,
           "response_id_b": call.response_id_b, "shown_first": call.shown_first,
           "preference": _text(preference), "preference_label": label or "", "reason": reason,
           "raw_output": raw, "failure_reason": failure or ""}
    return [row], {"kind": "pairwise", "item_id": call.item_id, "response_id_a": call.response_id_a,
                   "response_id_b": call.response_id_b, "shown_first": call.shown_first, "label": label,
                   "failure_reason": failure}


# ---------------------------------------------------------------------------------------------------- running


def worst_case_cost(call: Call, cfg: JudgeConfig, price: Price | None) -> Decimal | None:
    """Upper bound of a call's cost: max_input_tokens at the input price + max_tokens at the output price."""
    return call_cost(price, call.max_input_tokens, cfg.max_tokens)


def estimate(calls: list[Call], cfg: JudgeConfig, price: Price | None, cache: JudgeCache, ratings_dir: Path,
             comparisons_dir: Path) -> dict:
    """What a run would do, without calling: counts of planned, already stored, cached and to-send calls, their
    estimated and upper-bound input tokens (``pricing.estimate_tokens`` / ``max_input_tokens``), the output cap
    (``max_tokens`` per call) and the cost: ``cost_estimate`` = typical input + full output cap, ``cost_max`` =
    upper-bound input + full output cap (what the budget cap reserves); both None without a price."""
    done = answered_identities(cfg, ratings_dir, comparisons_dir)
    todo = [c for c in calls if _identity(c.kind, c) not in done]
    send = [c for c in todo if cache.get(c.key) is None]
    est_in = sum(c.est_input_tokens for c in send)
    max_in = sum(c.max_input_tokens for c in send)
    out_cap = cfg.max_tokens * len(send)
    return {
        "planned": len(calls), "already_stored": len(calls) - len(todo), "cache_hits": len(todo) - len(send),
        "to_send": len(send), "input_tokens_estimate": est_in, "input_tokens_max": max_in,
        "output_tokens_max": out_cap, "cost_estimate": call_cost(price, est_in, out_cap),
        "cost_max": call_cost(price, max_in, out_cap),
    }


def run(calls: list[Call], cfg: JudgeConfig, endpoint: Endpoint | None, price: Price | None, cache: JudgeCache,
        ratings_dir: Path, comparisons_dir: Path, http: httpx.Client | None = None,
        sleep=time.sleep) -> RunReport:
    """Run ``calls``: skip answered ones, answer from the cache, send the rest (at most ``cfg.concurrency`` at a
    time, never past the budget), and append every outcome to the store as one new file.

    Budget: before a call is sent, its worst-case cost is reserved; a call whose reservation would take spent +
    reserved past ``cfg.budget`` is not sent and the run stops launching (``report.stopped``). A call whose cost
    is unknown (no usage in the answer) is charged its worst case. A budget needs a price (JudgeError)."""
    report = RunReport(planned=len(calls))
    if cfg.budget is not None and price is None:
        raise JudgeError(f"a budget needs a price for {cfg.judge_model!r}: add it to the pricing table or pass "
                         "--price-input and --price-output")
    done = answered_identities(cfg, ratings_dir, comparisons_dir)
    todo = [c for c in calls if _identity(c.kind, c) not in done]
    report.already_stored = len(calls) - len(todo)
    lock = threading.Lock()
    results: dict[int, tuple[list[dict], dict]] = {}
    reserved = Decimal(0)
    slots = threading.Semaphore(max(1, cfg.concurrency))
    stop = threading.Event()
    own_client = http is None
    http = http or httpx.Client()

    def finish(i: int, call: Call, reservation: Decimal, result: ChatResult) -> None:
        nonlocal reserved
        try:
            rated_at = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%S")
            if result.body is not None:
                cache.put(call.key, call.payload, result.body, result.latency_ms)
            rows, verdict = _rows_for(call, cfg, price, result.body, result.error, result.latency_ms, rated_at)
            with lock:
                results[i] = (rows, verdict)
                report.sent += 1
                report.http_attempts += result.attempts
                reserved -= reservation
                cost = _num(rows[0]["cost"]) if rows and rows[0]["cost"] else None
                if cost is None and result.body is not None:
                    report.spent_unknown += 1
                    cost = reservation  # unknown usage: charge the worst case against the budget
                report.spent += cost or Decimal(0)
                if result.status in FATAL_STATUSES:
                    report.stopped = f"stopped: {result.error}"
                    stop.set()
        finally:
            slots.release()

    def send(i: int, call: Call, reservation: Decimal) -> None:
        result = ChatResult(None, "not sent", 0, None)
        try:
            result = chat(http, endpoint, call.payload, timeout=cfg.timeout, max_retries=cfg.max_retries,
                          backoff_base=cfg.backoff_base, backoff_max=cfg.backoff_max, sleep=sleep)
        finally:
            finish(i, call, reservation, result)

    try:
        with ThreadPoolExecutor(max_workers=max(1, cfg.concurrency)) as pool:
            for i, call in enumerate(todo):
                entry = cache.get(call.key)
                if entry is not None:
                    cached_at = entry.get("cached_at", "").rstrip("Z")
                    outcome = _rows_for(call, cfg, price, entry["body"], None, entry.get("latency_ms"), cached_at)
                    with lock:
                        results[i] = outcome
                    report.cache_hits += 1
                    continue
                slots.acquire()
                if stop.is_set():
                    slots.release()
                    break
                worst = worst_case_cost(call, cfg, price) or Decimal(0)
                with lock:
                    if cfg.budget is not None and report.spent + reserved + worst > cfg.budget:
                        report.stopped = (f"budget cap: {cfg.budget} USD reached (spent {report.spent}, the next call "
                                          f"may cost up to {worst})")
                        stop.set()
                    else:
                        reserved += worst
                if stop.is_set():
                    slots.release()
                    break
                pool.submit(send, i, call, worst)
    finally:
        if own_client:
            http.close()
    report.not_run = len(todo) - len(results)
    ordered = [results[i] for i in sorted(results)]
    report.verdicts = [v for _, v in ordered]
    report.failed = sum(1 for v in report.verdicts if v["failure_reason"])
    rows = [r for rs, _ in ordered for r in rs]
    if rows:
        if cfg.pairwise:
            report.files.append(comparisons.append_comparisons(rows, comparisons_dir, label=cfg.rater_id))
        else:
            with store.store_lock(ratings_dir):
                report.files.append(store.append(rows, store_dir=ratings_dir, label=cfg.rater_id))
    return report
