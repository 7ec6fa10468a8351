"""Rating rounds: a lead decides who reads what, so every reply in scope gets N independent blind readers.

A round is data, written once and never edited (``files.write_new``), under ``data/rounds/`` in the project:

- ``definitions/<round_id>.csv``: one row, ``ROUND_COLUMNS``: suite, rubric and version, the scope (``all``,
  ``sample`` of ``scope_sample_size`` replies drawn with ``seed``, ``filter`` by items / model runs / a SQL predicate
  on ``dim_responses`` as ``r``), readers per reply, the raters (``;``-separated), the due date and the lock time;
- ``assignments/<round_id>/<UTC time>_<action>_<hash>.csv``: assignment events, ``ASSIGNMENT_COLUMNS``. ``create``
  writes one ``assign`` row per packet; ``reassign`` (an explicit lead action) appends a new file with a
  ``reassign`` row naming the previous rater and the reason. The packet's rater is the one of its latest event;
- the blind key ``data/blind/keys/<round_id>.csv`` (``export_id`` = round id): which reply hides behind each letter
  of each packet, read by the ratings store and the warehouse like any blind export's key;
- ``locks/<round_id>/<UTC time>_<hash>.json``: lock events (``open`` / ``release``) of the blind page, not read by
  the warehouse.

Assignment (``assign``): a packet is one item's in-scope replies for one reader. Items are shuffled with
``Random(f"{seed}:{round_id}")`` and so are the raters; reader slots (item 1 reader 1, item 1 reader 2, ...) are dealt
to the raters in turn. N consecutive slots go to N different raters when N <= raters, so every reply gets N distinct
readers and the raters' loads (packets) differ by at most one. Within an item the replies are shuffled once with
``Random(f"{seed}:{round_id}:{item_id}")``; reader k (0-based) sees that order rotated by k, so readers of an item
with n >= N replies all see a different order. Letters A, B, ... record the shown order.

Locks (``open_packet``): a packet opened on the blind page is locked to that rater's browser session for
``lock_minutes``; another session (even the same rater's) is refused until the lock is released or expires.
Only the packet's rater may open it; a rater not in the round gets RoundAccessError.
"""
from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import random
from dataclasses import dataclass
from pathlib import Path

from evalhouse import paths
from evalhouse.files import write_new
from evalhouse.ratings.blind import EXPORT_ID, letters
from evalhouse.ratings.store import KEY_COLUMNS, rater_id_problem, store_lock

__all__ = [
    "ROUND_COLUMNS", "ASSIGNMENT_COLUMNS", "RoundError", "RoundAccessError", "PacketLocked", "Lock",
    "rounds_dir", "assign", "select_replies", "create_round", "list_rounds", "load_round", "packet_holders",
    "packet_replies", "rater_packets", "open_packet", "release_packet", "active_lock",
    "check_lock", "reassign", "packet_status", "resolve_rubric", "assignment_events", "save_round_reply",
    "adjudication_template",
]

ROUND_COLUMNS = [
    "round_id", "suite", "rubric_id", "rubric_version", "scope", "scope_sample_size", "scope_filter", "seed",
    "readers_per_reply", "raters", "due_date", "lock_minutes", "n_replies", "n_packets", "created_by", "created_at",
]
ASSIGNMENT_COLUMNS = [
    "round_id", "packet_id", "item_id", "reader_slot", "rater_id", "action", "from_rater_id", "reason", "acted_by",
    "acted_at", "event_row",
]
DEFAULT_LOCK_MINUTES = 30


class RoundError(ValueError):
    """The round cannot be created or changed as asked; nothing was written."""


class RoundAccessError(PermissionError):
    """A rater asked for a packet that is not theirs, or is not in the round."""


class PacketLocked(RuntimeError):
    """The packet is open in another session; ``expires_at`` says until when."""

    def __init__(self, message: str, expires_at: dt.datetime):
        super().__init__(message)
        self.expires_at = expires_at


@dataclass(frozen=True)
class Lock:
    round_id: str
    packet_id: str
    rater_id: str
    session_id: str
    expires_at: dt.datetime


def rounds_dir() -> Path:
    return paths.project_dir() / "data" / "rounds"


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(microsecond=0)


def _iso(t: dt.datetime) -> str:
    return t.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _parse_time(text: str) -> dt.datetime:
    return dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.UTC)


def _csv_bytes(columns: list[str], rows: list[dict]) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    w.writerows({k: r.get(k, "") for k in columns} for r in rows)
    return buf.getvalue().encode("utf-8")


def _read_csv(path: Path, columns: list[str] | None = None) -> list[dict]:
    """The rows of a CSV file; with ``columns``, a round file (written by `evalhouse round create` / `reassign`)
    whose header lacks any of them raises RoundError naming the file and the columns."""
    with open(path, encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        missing = [c for c in columns or [] if c not in (reader.fieldnames or [])]
        if missing:
            raise RoundError(f"{path}:1: missing column(s) {', '.join(missing)} (round files are written by "
                             "`evalhouse round create` and `round reassign`; restore the file as they wrote it)")
        return list(reader)


def _event_name(action: str, content: bytes) -> str:
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S%fZ")
    return f"{stamp}_{action}_{hashlib.sha256(content).hexdigest()[:10]}"


# --- assignment (pure) -------------------------------------------------------------------------------------------

def _check_people(raters: list[str], readers: int) -> None:
    """Raise RoundError when ``readers`` < 1, a rater is listed twice or has a bad id, or readers > raters."""
    raters = list(raters)
    if readers < 1:
        raise RoundError(f"readers per reply must be at least 1, not {readers}")
    dupes = sorted({r for r in raters if raters.count(r) > 1})
    if dupes:
        raise RoundError(f"rater(s) listed twice: {', '.join(dupes)}")
    for r in raters:
        if rater_id_problem(r):
            raise RoundError(f"rater {r!r}: {rater_id_problem(r)}")
    if readers > len(raters):
        raise RoundError(f"{readers} readers per reply need at least {readers} raters; the round lists "
                         f"{len(raters)} ({', '.join(raters) or 'none'})")


def assign(replies: list[tuple[str, str]], raters: list[str], readers: int, seed: int,
           round_id: str) -> tuple[list[dict], list[dict]]:
    """Deal packets to raters. ``replies``: (item_id, response_id) pairs in scope.

    Returns (packets, key rows): packets are {packet_id, item_id, reader_slot (1..N), rater_id}; key rows follow
    ``store.KEY_COLUMNS`` plus nothing else (letter A = shown first). Raises RoundError when ``readers`` < 1, there
    are fewer distinct raters than ``readers``, a rater id is not valid, or nothing is in scope."""
    _check_people(raters, readers)
    if not replies:
        raise RoundError("no replies in scope")
    by_item: dict[str, list[str]] = {}
    for item_id, response_id in sorted(set(replies)):
        by_item.setdefault(item_id, []).append(response_id)
    rng = random.Random(f"{seed}:{round_id}")
    items = sorted(by_item)
    rng.shuffle(items)
    dealer = sorted(raters)
    rng.shuffle(dealer)
    packets, keys = [], []
    slot = 0
    for item_id in items:
        base = sorted(by_item[item_id])
        random.Random(f"{seed}:{round_id}:{item_id}").shuffle(base)
        for k in range(readers):
            rater = dealer[slot % len(dealer)]
            slot += 1
            packet_id = f"{round_id}-{item_id}-{k + 1}"
            shown = base[k % len(base):] + base[:k % len(base)]
            packets.append({"packet_id": packet_id, "item_id": item_id, "reader_slot": k + 1, "rater_id": rater})
            for letter, response_id in zip(letters(len(shown)), shown):
                keys.append({"export_id": round_id, "packet_id": packet_id, "item_id": item_id, "letter": letter,
                             "response_id": response_id})
    return packets, keys


# --- scope and rubric (read from the published warehouse) -------------------------------------------------------

def select_replies(con, suite: str, items: list[str] | None = None, systems: list[str] | None = None,
                   where: str | None = None, sample: int | None = None, seed: int = 42) -> list[tuple[str, str]]:
    """The (item_id, response_id) pairs of ``suite`` in scope: replies with text, optionally only ``items`` /
    ``systems`` / rows of ``dim_responses as r`` where the SQL predicate ``where`` holds, then a sample of
    ``sample`` replies drawn with ``Random(seed)`` from them sorted. Raises RoundError on an unknown suite, a
    predicate the warehouse rejects, a sample larger than the scope, or an empty scope."""
    import duckdb

    check_suite(con, suite)
    sql = ("select r.item_id, r.response_id, r.system_id from dim_responses as r "
           "where r.suite = ? and r.response_text is not null")
    if where:
        sql += f" and ({where})"
    try:
        rows = con.execute(sql + " order by r.item_id, r.response_id", [suite]).fetchall()
    except duckdb.Error as exc:
        raise RoundError(f"--where {where!r}: the warehouse rejected it ({str(exc).splitlines()[0]})") from exc
    if items:
        unknown = sorted(set(items) - {r[0] for r in rows})
        if unknown:
            raise RoundError(f"item(s) not in scope of suite {suite!r}: {', '.join(unknown)}")
        rows = [r for r in rows if r[0] in set(items)]
    if systems:
        unknown = sorted(set(systems) - {r[2] for r in rows})
        if unknown:
            raise RoundError(f"model run(s) with no reply in scope of suite {suite!r}: {', '.join(unknown)}")
        rows = [r for r in rows if r[2] in set(systems)]
    pairs = sorted((r[0], r[1]) for r in rows)
    if not pairs:
        raise RoundError(f"no replies with text in scope of suite {suite!r}")
    if sample is not None:
        if not 1 <= sample <= len(pairs):
            raise RoundError(f"--sample {sample}: the scope holds {len(pairs)} replies")
        pairs = sorted(random.Random(seed).sample(pairs, sample))
    return pairs


def check_suite(con, suite: str) -> None:
    """Raise RoundError naming the warehouse's suites when ``suite`` has no replies there."""
    suites = [s for (s,) in con.execute("select distinct suite from dim_responses order by suite").fetchall()]
    if suite not in suites:
        raise RoundError(f"unknown suite {suite!r}; the warehouse has: {', '.join(suites) or 'none'}")


def resolve_rubric(con, suite: str, rubric_id: str | None, rubric_version: int | None) -> tuple[str, int]:
    """The round's rubric: ``rubric_id`` (default: the suite's only rubric) at ``rubric_version`` (default: its
    latest). Raises RoundError naming the known rubrics or versions."""
    rows = con.execute("select distinct rubric_id, rubric_version from dim_rubric_levels where suite = ?",
                       [suite]).fetchall()
    versions: dict[str, set[int]] = {}
    for rid, v in rows:
        versions.setdefault(rid, set()).add(int(v))
    if not versions:
        raise RoundError(f"suite {suite!r} has no rubric")
    if rubric_id is None:
        if len(versions) > 1:
            raise RoundError(f"suite {suite!r} has several rubrics ({', '.join(sorted(versions))}); give --rubric")
        rubric_id = next(iter(versions))
    if rubric_id not in versions:
        raise RoundError(f"unknown rubric {rubric_id!r} for suite {suite!r}; known: {', '.join(sorted(versions))}")
    version = rubric_version if rubric_version is not None else max(versions[rubric_id])
    if version not in versions[rubric_id]:
        raise RoundError(f"rubric {rubric_id!r} has no version {version}; versions: "
                         f"{', '.join(str(v) for v in sorted(versions[rubric_id]))}")
    return rubric_id, version


# --- create and read ---------------------------------------------------------------------------------------------

def _definition_file(round_id: str, root: Path) -> Path:
    return root / "definitions" / f"{round_id}.csv"


def create_round(con, round_id: str, suite: str, raters: list[str], readers: int, due_date: str,
                 rubric_id: str | None = None, rubric_version: int | None = None, items: list[str] | None = None,
                 systems: list[str] | None = None, where: str | None = None, sample: int | None = None,
                 seed: int = 42, lock_minutes: int = DEFAULT_LOCK_MINUTES, created_by: str = "lead",
                 root: Path | None = None, keys_dir: Path | None = None, today: dt.date | None = None) -> dict:
    """Check everything, then write the blind key, the assignment events and the definition (in that order, each a
    new file). Raises RoundError (nothing written) on a bad round id, an existing round or key, an unknown suite /
    rubric / version, a bad scope, more readers than raters, a due date that is not YYYY-MM-DD or is in the past, or
    a lock time outside 1..1440 minutes. Returns the definition row plus ``packets`` ({rater: n packets})."""
    root = Path(root) if root else rounds_dir()
    keys_dir = Path(keys_dir) if keys_dir else paths.blind_keys_dir()
    if not EXPORT_ID.fullmatch(round_id or "") or round_id.startswith("000_"):
        raise RoundError(f"round id {round_id!r}: use letters, digits, '.', '_' and '-' only (it names files)")
    raters = [r.strip() for r in raters if r.strip()]
    try:
        due = dt.date.fromisoformat(due_date)
    except (TypeError, ValueError):
        raise RoundError(f"due date {due_date!r} is not a date (YYYY-MM-DD)") from None
    if due < (today or dt.datetime.now(dt.UTC).date()):
        raise RoundError(f"due date {due_date} is in the past")
    if not 1 <= lock_minutes <= 1440:
        raise RoundError(f"lock time {lock_minutes} minutes: use 1 to 1440")
    for f in (_definition_file(round_id, root), keys_dir / f"{round_id}.csv", root / "assignments" / round_id):
        if f.exists():
            raise RoundError(f"{f}: round {round_id!r} (or a blind export of that id) already exists; choose "
                             "another round id")
    _check_people(raters, readers)  # before reading the warehouse
    check_suite(con, suite)
    rubric_id, rubric_version = resolve_rubric(con, suite, rubric_id, rubric_version)
    replies = select_replies(con, suite, items=items, systems=systems, where=where, sample=sample, seed=seed)
    packets, keys = assign(replies, raters, readers, seed, round_id)
    now = _iso(_now())
    scope = "+".join(s for s, on in (("filter", items or systems or where), ("sample", sample is not None)) if on)
    filters = "; ".join(x for x in (items and "items " + ",".join(items), systems and "systems " + ",".join(systems),
                                     where and f"where {where}") if x)
    definition = {
        "round_id": round_id, "suite": suite, "rubric_id": rubric_id, "rubric_version": rubric_version,
        "scope": scope or "all", "scope_sample_size": sample if sample is not None else "", "scope_filter": filters,
        "seed": seed, "readers_per_reply": readers, "raters": ";".join(raters), "due_date": due.isoformat(),
        "lock_minutes": lock_minutes, "n_replies": len(replies), "n_packets": len(packets), "created_by": created_by,
        "created_at": now,
    }
    key_rows = [{**k, "suite": suite, "rubric_id": rubric_id, "rubric_version": rubric_version} for k in keys]
    events = [{**p, "round_id": round_id, "action": "assign", "acted_by": created_by, "acted_at": now,
               "event_row": i} for i, p in enumerate(packets, 1)]
    write_new(keys_dir / f"{round_id}.csv", _csv_bytes(KEY_COLUMNS, key_rows))
    content = _csv_bytes(ASSIGNMENT_COLUMNS, events)
    write_new(root / "assignments" / round_id / f"{_event_name('assign', content)}.csv", content)
    write_new(_definition_file(round_id, root), _csv_bytes(ROUND_COLUMNS, [definition]))
    loads: dict[str, int] = dict.fromkeys(raters, 0)
    for p in packets:
        loads[p["rater_id"]] += 1
    return {**definition, "packets": loads}


def list_rounds(root: Path | None = None) -> list[dict]:
    """Every round's definition row (as text), sorted by round id."""
    root = Path(root) if root else rounds_dir()
    out = []
    for f in sorted((root / "definitions").glob("*.csv")):
        out.extend(r for r in _read_csv(f, ROUND_COLUMNS) if r.get("round_id"))
    return sorted(out, key=lambda r: r["round_id"])


def load_round(round_id: str, root: Path | None = None) -> dict:
    """The round's definition with ``raters`` as a list and numbers as int. Raises RoundError for an unknown round."""
    root = Path(root) if root else rounds_dir()
    f = _definition_file(round_id, root)
    rows = _read_csv(f, ROUND_COLUMNS) if EXPORT_ID.fullmatch(round_id or "") and f.is_file() else []
    if not rows or rows[0].get("round_id") != round_id:
        known = ", ".join(r["round_id"] for r in list_rounds(root)) or "none"
        raise RoundError(f"unknown round {round_id!r}; rounds: {known}")
    row = rows[0]
    row["raters"] = [r for r in row["raters"].split(";") if r]
    for k in ("rubric_version", "readers_per_reply", "lock_minutes", "n_replies", "n_packets", "seed"):
        row[k] = int(row[k])
    return row


def assignment_events(round_id: str, root: Path | None = None) -> list[dict]:
    """Every assignment event of the round in the order written (file name = UTC time, then row)."""
    root = Path(root) if root else rounds_dir()
    events = []
    for f in sorted((root / "assignments" / round_id).glob("*.csv")):
        events.extend(_read_csv(f, ASSIGNMENT_COLUMNS))
    return events


def packet_holders(round_id: str, root: Path | None = None) -> dict[str, dict]:
    """packet_id -> its latest assignment event (``rater_id`` is the packet's rater now)."""
    holders: dict[str, dict] = {}
    for e in assignment_events(round_id, root):
        holders[e["packet_id"]] = e
    return holders


def packet_replies(round_id: str, keys_dir: Path | None = None) -> dict[str, list[dict]]:
    """packet_id -> its key rows in shown order (letter A first)."""
    keys_dir = Path(keys_dir) if keys_dir else paths.blind_keys_dir()
    out: dict[str, list[dict]] = {}
    for row in _read_csv(keys_dir / f"{round_id}.csv"):
        out.setdefault(row["packet_id"], []).append(row)
    for rows in out.values():
        rows.sort(key=lambda r: (len(r["letter"]), r["letter"]))
    return out


def _check_rater(rnd: dict, rater_id: str) -> str:
    rater_id = (rater_id or "").strip()
    if rater_id not in rnd["raters"]:
        raise RoundAccessError(f"{rater_id or '(no name)'} is not a rater of round {rnd['round_id']}; ask the "
                               "evaluation lead to add you to a round")
    return rater_id


def rater_packets(round_id: str, rater_id: str, root: Path | None = None) -> list[str]:
    """The packet ids the rater holds now, sorted. Raises RoundAccessError for a rater not in the round."""
    rater_id = _check_rater(load_round(round_id, root), rater_id)
    return sorted(p for p, e in packet_holders(round_id, root).items() if e["rater_id"] == rater_id)


# --- locks -------------------------------------------------------------------------------------------------------

def _lock_events(folder: Path, packet_id: str) -> list[dict]:
    events = []
    for f in sorted(folder.glob("*.json")):
        e = json.loads(f.read_text(encoding="utf-8"))
        if e.get("packet_id") == packet_id:
            events.append(e)
    return events


def active_lock(round_id: str, packet_id: str, now: dt.datetime | None = None,
                root: Path | None = None) -> Lock | None:
    """The lock holding the packet at ``now`` (None when free: never opened, released, or expired)."""
    root = Path(root) if root else rounds_dir()
    now = now or _now()
    current = None
    for e in _lock_events(root / "locks" / round_id, packet_id):
        if e["action"] == "open":
            current = e
        elif e["action"] == "release" and current is not None and e["session_id"] == current["session_id"]:
            current = None
    if current is None or _parse_time(current["expires_at"]) <= now:
        return None
    return Lock(round_id, packet_id, current["rater_id"], current["session_id"], _parse_time(current["expires_at"]))


def _write_lock_event(folder: Path, event: dict) -> None:
    content = (json.dumps(event, ensure_ascii=False) + "\n").encode("utf-8")
    write_new(folder / f"{_event_name(event['action'], content)}.json", content)


def open_packet(round_id: str, packet_id: str, rater_id: str, session_id: str, now: dt.datetime | None = None,
                root: Path | None = None, take_over: bool = False) -> Lock:
    """Lock the packet to ``rater_id``'s session ``session_id`` for the round's lock time (re-opening from the same
    session renews it). Raises RoundAccessError when the rater is not in the round or the packet is not theirs,
    PacketLocked when another session holds it -- unless ``take_over``: the packet's own rater (a reloaded page is a
    new session) then releases the other session's lock and opens it here; saves from the other session are then
    refused (check_lock). Only one session ever holds the lock."""
    root = Path(root) if root else rounds_dir()
    rnd = load_round(round_id, root)
    rater_id = _check_rater(rnd, rater_id)
    holder = packet_holders(round_id, root).get(packet_id)
    if holder is None:
        raise RoundAccessError(f"round {round_id} has no packet {packet_id!r}")
    if holder["rater_id"] != rater_id:
        raise RoundAccessError(f"packet {packet_id} is assigned to another rater, not to {rater_id}")
    if not session_id:
        raise ValueError("a lock needs a session id")
    now = now or _now()
    folder = root / "locks" / round_id
    with store_lock(folder):
        lock = active_lock(round_id, packet_id, now, root)
        if lock is not None and lock.session_id != session_id and take_over:
            _write_lock_event(folder, {"round_id": round_id, "packet_id": packet_id, "rater_id": lock.rater_id,
                                       "session_id": lock.session_id, "action": "release", "at": _iso(now),
                                       "expires_at": _iso(now), "released_by": session_id})
        elif lock is not None and lock.session_id != session_id:
            raise PacketLocked(f"packet {packet_id} is open in another session until {_iso(lock.expires_at)} "
                               "(close it there, or wait for the lock to expire)", lock.expires_at)
        expires = now + dt.timedelta(minutes=rnd["lock_minutes"])
        _write_lock_event(folder, {"round_id": round_id, "packet_id": packet_id, "rater_id": rater_id,
                                   "session_id": session_id, "action": "open", "at": _iso(now),
                                   "expires_at": _iso(expires)})
    return Lock(round_id, packet_id, rater_id, session_id, expires)


def release_packet(round_id: str, packet_id: str, session_id: str, now: dt.datetime | None = None,
                   root: Path | None = None) -> bool:
    """Release the session's lock on the packet; True when it held one."""
    root = Path(root) if root else rounds_dir()
    now = now or _now()
    folder = root / "locks" / round_id
    with store_lock(folder):
        lock = active_lock(round_id, packet_id, now, root)
        if lock is None or lock.session_id != session_id:
            return False
        _write_lock_event(folder, {"round_id": round_id, "packet_id": packet_id, "rater_id": lock.rater_id,
                                   "session_id": session_id, "action": "release", "at": _iso(now),
                                   "expires_at": _iso(now)})
    return True


def check_lock(round_id: str, packet_id: str, rater_id: str, session_id: str, now: dt.datetime | None = None,
               root: Path | None = None) -> None:
    """Raise unless ``session_id`` of ``rater_id`` holds the packet's lock now (saving needs the lock)."""
    lock = active_lock(round_id, packet_id, now, root)
    if lock is None or lock.session_id != session_id or lock.rater_id != rater_id:
        raise PacketLocked(f"packet {packet_id} is not open in this session (the lock expired or another session "
                           "holds it); open it again", lock.expires_at if lock else _now())


# --- reassign (lead) ---------------------------------------------------------------------------------------------

def reassign(round_id: str, packet_id: str, to_rater: str, reason: str, acted_by: str = "lead",
             submitted_by_holder: bool = False, root: Path | None = None) -> dict:
    """Give a packet to another rater of the round: a new ``reassign`` event naming the previous rater and the
    reason (the lead's explicit action; nothing is edited). Raises RoundError when the packet is unknown, the
    reason is empty, the new rater is not in the round, is already its rater, already holds a packet of the same
    item in this round, or the current rater has submitted it (``submitted_by_holder``: their ratings count)."""
    root = Path(root) if root else rounds_dir()
    rnd = load_round(round_id, root)
    to_rater = (to_rater or "").strip()
    reason = " ".join((reason or "").split())
    if not reason:
        raise RoundError("a reassignment needs a reason (it is logged)")
    if to_rater not in rnd["raters"]:
        raise RoundError(f"{to_rater or '(no name)'} is not a rater of round {round_id} "
                         f"({', '.join(rnd['raters'])})")
    folder = root / "assignments" / round_id
    with store_lock(folder):
        holders = packet_holders(round_id, root)
        current = holders.get(packet_id)
        if current is None:
            raise RoundError(f"round {round_id} has no packet {packet_id!r}")
        if current["rater_id"] == to_rater:
            raise RoundError(f"packet {packet_id} is already assigned to {to_rater}")
        if submitted_by_holder:
            raise RoundError(f"packet {packet_id} is already submitted by {current['rater_id']}; it is not reassigned")
        clash = [p for p, e in holders.items() if e["item_id"] == current["item_id"] and e["rater_id"] == to_rater]
        if clash:
            raise RoundError(f"{to_rater} already reads item {current['item_id']} in this round ({clash[0]}); a "
                             "reply needs distinct readers")
        event = {"round_id": round_id, "packet_id": packet_id, "item_id": current["item_id"],
                 "reader_slot": current["reader_slot"], "rater_id": to_rater, "action": "reassign",
                 "from_rater_id": current["rater_id"], "reason": reason, "acted_by": acted_by,
                 "acted_at": _iso(_now()), "event_row": 1}
        content = _csv_bytes(ASSIGNMENT_COLUMNS, [event])
        write_new(folder / f"{_event_name('reassign', content)}.csv", content)
    return event


# --- live status (from the ratings store; the warehouse marts are the full picture after a build) -----------------

def packet_status(round_id: str, root: Path | None = None, keys_dir: Path | None = None,
                  store_dir: Path | None = None, now: dt.datetime | None = None) -> list[dict]:
    """One row per packet: {packet_id, item_id, rater_id, n_replies, n_saved, submitted, locked_until}.

    n_saved counts the packet's letters its current rater has saved (any criterion, the round's rubric version) in
    the ratings store; submitted = every letter saved (the blind page saves all criteria of a reply at once);
    locked_until is the open lock's expiry (UTC, '' when free). Raises RoundError for an unknown round."""
    rnd = load_round(round_id, root)
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    holders = packet_holders(round_id, root)
    replies = packet_replies(round_id, keys_dir)
    saved: set[tuple[str, str, str]] = set()
    for f in sorted((store_dir / rnd["suite"]).glob("*.csv")):
        for row in _read_csv(f):
            if row.get("packet_id") in holders and str(row.get("rubric_version")) == str(rnd["rubric_version"]):
                saved.add((row["packet_id"], row["letter"], row["rater_id"]))
    out = []
    for packet_id, event in sorted(holders.items()):
        letters_ = [r["letter"] for r in replies.get(packet_id, [])]
        n_saved = sum((packet_id, x, event["rater_id"]) in saved for x in letters_)
        lock = active_lock(round_id, packet_id, now, root)
        out.append({"packet_id": packet_id, "item_id": event["item_id"], "rater_id": event["rater_id"],
                    "n_replies": len(letters_), "n_saved": n_saved,
                    "submitted": bool(letters_) and n_saved == len(letters_),
                    "locked_until": _iso(lock.expires_at) if lock else ""})
    return out


def save_round_reply(round_id: str, packet_id: str, letter: str, rater_id: str, session_id: str,
                     scores: dict[str, int | None], reason: str, root: Path | None = None,
                     keys_dir: Path | None = None, store_dir: Path | None = None, db: Path | None = None) -> Path:
    """Save one reply of a round packet through evalhouse.ratings.blind_app.save_reply (validation, duplicate check, a
    new store file), only when ``rater_id`` is the packet's rater and ``session_id`` holds its lock. Raises
    RoundAccessError / PacketLocked (nothing saved) or blind_app.SaveRefused."""
    from evalhouse.ratings.blind_app import load_packet, save_reply

    rnd = load_round(round_id, root)
    rater_id = _check_rater(rnd, rater_id)
    holder = packet_holders(round_id, root).get(packet_id)
    if holder is None or holder["rater_id"] != rater_id:
        raise RoundAccessError(f"packet {packet_id} is not assigned to {rater_id}")
    check_lock(round_id, packet_id, rater_id, session_id, root=root)
    packet = load_packet(packet_id, keys_dir=keys_dir, db=db)
    return save_reply(packet, letter, rater_id, scores, reason, keys_dir=keys_dir, store_dir=store_dir, db=db)


ADJUDICATION_COLUMNS = ["response_id", "rubric_id", "rubric_version", "criterion", "score", "reason", "readings"]


def adjudication_template(con, round_id: str, out_file: Path, root: Path | None = None) -> int:
    """Write ``out_file`` (CSV, a new file) for the adjudicator: one row per criterion of every reply the round's
    readers disagree on (fct_round_disagreements of the published warehouse), score and reason empty, the readers'
    values of that criterion in ``readings`` for context (``ana=2; ben=1``; ``agreed: ana=2; ben=2`` for a criterion
    they agree on, from fct_round_readings; import-ratings reads the column and ignores it). Every criterion is
    listed so the adjudicator's reading is complete and gives the reply's ready decision too. Filled in, it is
    imported as new ratings with ``evalhouse import-ratings FILE --rater NAME --rater-kind adjudicator``. Returns the
    rows written; raises RoundError for an unknown round or when there is nothing to adjudicate (nothing written)."""
    rnd = load_round(round_id, root)
    replies = [r for (r,) in con.execute(
        "select distinct response_id from fct_round_disagreements where round_id = ? order by 1", [round_id]
    ).fetchall()]
    if not replies:
        raise RoundError(f"round {round_id}: the readers disagree on no reply in the published warehouse (run "
                         "`make build` after new readings)")
    criteria = [c for (c,) in con.execute(
        "select criterion from dim_rubric_levels where rubric_id = ? and rubric_version = ? "
        "group by criterion order by min(criterion_order)", [rnd["rubric_id"], rnd["rubric_version"]]).fetchall()]
    readings = {(r, m): v for r, m, v in con.execute(
        "select response_id, measure, readings from fct_round_disagreements where round_id = ?", [round_id]
    ).fetchall()}
    agreed: dict[tuple[str, str], list[str]] = {}
    for r, m, rater, value in con.execute(
            "select response_id, measure, rater_id, value from fct_round_readings where round_id = ? "
            "order by response_id, measure, rater_id", [round_id]).fetchall():
        agreed.setdefault((r, m), []).append(f"{rater}={value}")
    rows = [{"response_id": r, "rubric_id": rnd["rubric_id"], "rubric_version": rnd["rubric_version"],
             "criterion": c, "readings": readings.get((r, c)) or "agreed: " + "; ".join(agreed.get((r, c), []))}
            for r in replies for c in criteria]
    write_new(Path(out_file), _csv_bytes(ADJUDICATION_COLUMNS, rows))
    return len(rows)
