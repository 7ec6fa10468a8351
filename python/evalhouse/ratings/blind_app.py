"""Blind scoring in the app: packets from the blind keys, saved scores from the ratings store, one save per reply.

A packet is rebuilt from its key rows (``data/blind/keys/<export_id>.csv``) and the published warehouse: the ticket,
its answer key, the rubric version's anchors and the replies under their letters. Model names and response ids are
never part of a packet view; ``reveal`` returns them, and the page calls it only once the rater has saved a score
for every criterion of every letter (the packet is then submitted). The page shows saved scores, the save form and
the reveal only to a rater who gave their token (evalhouse.ratings.blind_access).

Saving goes through ``evalhouse.ratings.store.import_ratings`` (validation, duplicate check against the store, then a
new file written as temp file + hard link, under the store lock): a reply already saved by the same rater is refused as
a duplicate, so a second tab or a reload cannot save it twice, and nothing saved is ever edited or lost.
"""
from __future__ import annotations

import csv
import tempfile
from dataclasses import dataclass
from pathlib import Path

from evalhouse import paths
from evalhouse.ratings.store import Catalog, ImportRejected, import_ratings, read_keys
from evalhouse.warehouse.published import connect_readonly


class SaveRefused(ValueError):
    """The reply's scores were not saved (incomplete form, or the store refused them); the message says why."""


@dataclass(frozen=True)
class Packet:
    packet_id: str
    export_id: str
    suite: str
    item_id: str
    item_text: str | None
    answer_key: str | None
    language: str | None
    rubric_id: str
    rubric_version: int
    letters: list[str]
    replies: dict[str, str | None]  # letter -> reply text as sent
    criteria: list[dict]  # [{criterion, order, min, max, anchors: {level: anchor}}] in rubric order


def list_packets(keys_dir: Path | None = None) -> list[dict]:
    """Every packet of every blind export: [{packet_id, export_id, suite, item_id, n_replies, rubric_version}]."""
    keys = read_keys(Path(keys_dir) if keys_dir else paths.blind_keys_dir())
    packets: dict[str, dict] = {}
    for (packet_id, _letter), row in keys.items():
        p = packets.setdefault(packet_id, {"packet_id": packet_id, "export_id": row["export_id"], "suite": row["suite"],
                                           "item_id": row["item_id"], "n_replies": 0,
                                           "rubric_version": int(row["rubric_version"])})
        p["n_replies"] += 1
    return sorted(packets.values(), key=lambda p: (p["export_id"], p["item_id"]))


def _key_rows(packet_id: str, keys_dir: Path | None) -> list[dict]:
    keys = read_keys(Path(keys_dir) if keys_dir else paths.blind_keys_dir())
    rows = [row for (pid, _), row in keys.items() if pid == packet_id]
    if not rows:
        raise KeyError(f"unknown packet {packet_id!r}")
    return sorted(rows, key=lambda r: (len(r["letter"]), r["letter"]))


def load_packet(packet_id: str, keys_dir: Path | None = None, db: Path | None = None) -> Packet:
    rows = _key_rows(packet_id, keys_dir)
    first = rows[0]
    version = int(first["rubric_version"])
    with connect_readonly(db) as con:
        item = con.execute("select input_text, reference_text, language from dim_items where suite = ? and item_id = ?",
                           [first["suite"], first["item_id"]]).fetchone() or (None, None, None)
        texts = dict(con.execute(
            "select response_id, response_text from dim_responses where response_id in (select unnest(?))",
            [[r["response_id"] for r in rows]]).fetchall())
        levels = con.execute("""
            select criterion, criterion_order, min_score, max_score, level, anchor from dim_rubric_levels
            where rubric_id = ? and rubric_version = ? order by criterion_order, level desc
        """, [first["rubric_id"], version]).fetchall()
    criteria: dict[str, dict] = {}
    for criterion, order, lo, hi, level, anchor in levels:
        c = criteria.setdefault(criterion, {"criterion": criterion, "order": int(order), "min": int(lo), "max": int(hi),
                                            "anchors": {}})
        c["anchors"][int(level)] = anchor
    return Packet(packet_id=packet_id, export_id=first["export_id"], suite=first["suite"], item_id=first["item_id"],
                  item_text=item[0], answer_key=item[1], language=item[2], rubric_id=first["rubric_id"],
                  rubric_version=version, letters=[r["letter"] for r in rows],
                  replies={r["letter"]: texts.get(r["response_id"]) for r in rows},
                  criteria=sorted(criteria.values(), key=lambda c: c["order"]))


def saved_scores(packet: Packet, rater_id: str, store_dir: Path | None = None) -> dict[str, dict]:
    """What ``rater_id`` has already saved for this packet, read from the store files:
    {letter: {"scores": {criterion: score}, "reason": text, "files": {file names}}}."""
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    out: dict[str, dict] = {}
    for f in sorted((store_dir / packet.suite).glob("*.csv")):
        with open(f, encoding="utf-8-sig", newline="") as fh:
            for row in csv.DictReader(fh):
                if row.get("packet_id") != packet.packet_id or row.get("rater_id") != rater_id:
                    continue
                if str(row.get("rubric_version", "")) != str(packet.rubric_version):
                    continue
                s = out.setdefault(row["letter"], {"scores": {}, "reason": row.get("reason", ""), "files": set()})
                s["scores"][row["criterion"]] = int(row["score"])
                s["files"].add(f.name)
    return out


def rater_has_ratings(rater_id: str, store_dir: Path | None = None) -> bool:
    """True when any store file holds a rating by ``rater_id`` (blind or not, any suite)."""
    store_dir = Path(store_dir) if store_dir else paths.ratings_store()
    for f in sorted(store_dir.glob("*/*.csv")):
        with open(f, encoding="utf-8-sig", newline="") as fh:
            if any(row.get("rater_id") == rater_id for row in csv.DictReader(fh)):
                return True
    return False


def is_submitted(packet: Packet, saved: dict[str, dict]) -> bool:
    """True when every letter has a saved score for every criterion of the packet's rubric version."""
    names = {c["criterion"] for c in packet.criteria}
    return bool(packet.letters) and all(names <= set(saved.get(letter, {}).get("scores", {}))
                                        for letter in packet.letters)


def save_reply(packet: Packet, letter: str, rater_id: str, scores: dict[str, int | None], reason: str,
               keys_dir: Path | None = None, store_dir: Path | None = None, db: Path | None = None) -> Path:
    """Validate one reply's scores and append them to the store as a new file; returns the file.

    Raises SaveRefused (nothing written) when the rater name, a criterion score or the reason is missing, the reason
    is not one line, or the store refuses the rows (e.g. already saved by this rater: a duplicate)."""
    rater_id = (rater_id or "").strip()
    reason = (reason or "").strip()
    problems = []
    if not rater_id:
        problems.append("enter your rater name first")
    if letter not in packet.letters:
        problems.append(f"packet {packet.packet_id} has no reply {letter}")
    missing = [c["criterion"] for c in packet.criteria if scores.get(c["criterion"]) is None]
    if missing:
        problems.append("score every criterion (missing: " + ", ".join(missing) + ")")
    if not reason:
        problems.append("give a one-line reason")
    elif "\n" in reason or "\r" in reason:
        problems.append("the reason must be one line")
    if problems:
        raise SaveRefused("; ".join(problems))
    with tempfile.TemporaryDirectory(prefix="evalhouse-blind-") as tmp:
        src = Path(tmp) / f"{packet.packet_id}-{letter}.csv"
        with open(src, "w", encoding="utf-8", newline="") as fh:
            w = csv.writer(fh, lineterminator="\n")
            w.writerow(["packet_id", "letter", "criterion", "score", "reason", "rubric_version"])
            for c in packet.criteria:
                w.writerow([packet.packet_id, letter, c["criterion"], int(scores[c["criterion"]]), reason,
                            packet.rubric_version])
        with connect_readonly(db) as con:
            catalog = Catalog.from_warehouse(con, keys_dir=keys_dir)
        try:
            target, _n = import_ratings(src, catalog, rater=rater_id, rater_kind="human", store_dir=store_dir)
        except ImportRejected as exc:
            if any("duplicate rating" in p for p in exc.problems):
                raise SaveRefused(f"reply {letter} is already saved by {rater_id}; nothing was saved twice") from exc
            raise SaveRefused("; ".join(p.split(":", 3)[-1].strip() for p in exc.problems)) from exc
    return target


def reveal(packet: Packet, keys_dir: Path | None = None, db: Path | None = None) -> dict[str, str]:
    """letter -> model run. Call only after ``is_submitted``."""
    rows = _key_rows(packet.packet_id, keys_dir)
    with connect_readonly(db) as con:
        systems = dict(con.execute(
            "select response_id, system_id from dim_responses where response_id in (select unnest(?))",
            [[r["response_id"] for r in rows]]).fetchall())
    return {r["letter"]: systems.get(r["response_id"], "(unknown run)") for r in rows}


def new_export(suite: str, seed: int, export_id: str, items: list[str] | None = None,
               keys_dir: Path | None = None, out_root: Path | None = None, db: Path | None = None) -> dict:
    """Make a blind export with evalhouse.ratings.blind.export: key in keys_dir, packet files in
    ``out_root/<export_id>/`` (default data/blind/exports/). Returns export()'s summary."""
    from evalhouse.ratings.blind import export

    out_root = Path(out_root) if out_root else paths.project_dir() / "data" / "blind" / "exports"
    with connect_readonly(db) as con:
        return export(con, out_root / export_id, suite, seed, export_id, keys_dir=keys_dir, items=items or None)
