"""Blind packets: replies under letters in a seeded random order, no model names; the key is kept apart.

`export` writes, for each item (ticket) of a suite, a packet with the item, its answer-key summary, the rubric's
anchors and the replies under letters A, B, C, ...; plus ``ratings_template.csv`` for the raters. The key (which
response hides behind each letter) goes to ``data/blind/keys/<export_id>.csv`` in the project -- never into the
packets folder -- and only the warehouse joins it (stg_ratings_store__ratings). The order is
``random.Random(f"{seed}:{packet_id}")`` shuffling the response ids sorted, so the same seed gives the same letters.
"""
from __future__ import annotations

import csv
import json
import random
import re
import string
from pathlib import Path

from evalhouse import paths
from evalhouse.files import write_new
from evalhouse.ratings.store import KEY_COLUMNS

EXPORT_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,80}")


class ExportError(ValueError):
    """The export cannot be made (nothing to export, or the key already exists)."""


def letters(n: int) -> list[str]:
    """A..Z, then AA, AB, ... for more than 26 replies."""
    out = list(string.ascii_uppercase[:n])
    i = 0
    while len(out) < n:
        out.append(string.ascii_uppercase[i // 26] + string.ascii_uppercase[i % 26])
        i += 1
    return out


def build_packets(con, suite: str, seed: int, export_id: str, items: list[str] | None = None,
                  systems: list[str] | None = None, rubric_version: int | None = None) -> tuple[list[dict], list[dict]]:
    """Packets and key rows from the published warehouse. Only replies with text are included."""
    responses = con.execute(
        """
        select r.response_id, r.item_id, r.system_id, r.response_text, i.input_text, i.reference_text, i.language
        from dim_responses as r
        left join dim_items as i on i.suite = r.suite and i.item_id = r.item_id
        where r.suite = ? and r.response_text is not null
        order by r.item_id, r.response_id
        """,
        [suite],
    ).fetchall()
    if items:
        responses = [r for r in responses if r[1] in set(items)]
    if systems:
        responses = [r for r in responses if r[2] in set(systems)]
    if not responses:
        raise ExportError(f"no replies with text to export for suite {suite!r} (items={items}, systems={systems})")
    levels = con.execute(
        """
        select rubric_id, rubric_version, criterion, criterion_order, min_score, max_score, level, anchor
        from dim_rubric_levels where suite = ? order by rubric_id, rubric_version, criterion_order, level desc
        """,
        [suite],
    ).fetchall()
    if not levels:
        raise ExportError(f"suite {suite!r} has no rubric")
    rubrics: dict[tuple[str, int], dict[str, dict]] = {}
    for rid, v, criterion, order, lo, hi, level, anchor in levels:
        c = rubrics.setdefault((rid, int(v)), {}).setdefault(
            criterion, {"criterion": criterion, "order": order, "min": lo, "max": hi, "anchors": {}})
        c["anchors"][str(level)] = anchor
    current = {}
    for rid, v in rubrics:
        current[rid] = max(current.get(rid, 0), v)
    # The rubric of each item: the one its responses were rated with, else the suite's only rubric.
    item_rubric = dict(con.execute(
        """
        select r.item_id, min(f.rubric_id)
        from dim_responses as r inner join fct_ratings as f on f.response_id = r.response_id
        where r.suite = ? group by r.item_id having count(distinct f.rubric_id) = 1
        """,
        [suite],
    ).fetchall())

    def rubric_of(item_id: str) -> tuple[str, int]:
        rid = item_rubric.get(item_id) or (next(iter(current)) if len(current) == 1 else None)
        if rid is None:
            raise ExportError(f"suite {suite!r} has several rubrics ({', '.join(sorted(current))}) and item "
                              f"{item_id!r} has no rating that tells which one it uses")
        version = rubric_version or current[rid]
        if (rid, version) not in rubrics:
            raise ExportError(f"rubric {rid!r} has no version {version}")
        return rid, version

    by_item: dict[str, list] = {}
    for r in responses:
        by_item.setdefault(r[1], []).append(r)
    packets, keys = [], []
    for item_id, rows in sorted(by_item.items()):
        packet_id = f"{export_id}-{item_id}"
        rubric_id, version = rubric_of(item_id)
        order = sorted(rows, key=lambda r: r[0])
        random.Random(f"{seed}:{packet_id}").shuffle(order)
        replies = []
        for letter, r in zip(letters(len(order)), order):
            replies.append({"letter": letter, "text": r[3]})
            keys.append(dict(export_id=export_id, suite=suite, packet_id=packet_id, item_id=item_id, letter=letter,
                             response_id=r[0], rubric_id=rubric_id, rubric_version=str(version)))
        first = rows[0]
        packets.append({
            "packet_id": packet_id, "export_id": export_id, "suite": suite, "item_id": item_id,
            "item_text": first[4], "answer_key": first[5], "language": first[6],
            "rubric_id": rubric_id, "rubric_version": version,
            "criteria": sorted(rubrics[(rubric_id, version)].values(), key=lambda c: c["order"]), "replies": replies,
        })
    return packets, keys


def _packet_markdown(p: dict) -> str:
    lines = [f"# Packet {p['packet_id']}", "", f"Item **{p['item_id']}** ({p['language']})", "",
             f"> {p['item_text'] or '(no text)'}", "", f"Answer key: {p['answer_key'] or '(none)'}", "",
             f"## Rubric {p['rubric_id']} v{p['rubric_version']}", ""]
    for c in p["criteria"]:
        lines.append(f"**{c['criterion']}** ({c['min']}-{c['max']})")
        lines += [f"- {s}: {c['anchors'].get(str(s), '')}" for s in range(c["max"], c["min"] - 1, -1)]
        lines.append("")
    for r in p["replies"]:
        lines += [f"## Reply {r['letter']}", "", r["text"], ""]
    return "\n".join(lines)


def _write_new(path: Path, content: str) -> None:
    write_new(path, content.encode("utf-8"))


def check_out_dir(out_dir: Path, keys_dir: Path) -> None:
    """Refuse a packets folder that is, holds or lies inside the keys folder or the raters' token folder: packets
    go to raters, keys and tokens never do. Raises ExportError (nothing is written)."""
    from evalhouse.ratings.blind_access import tokens_dir

    out = Path(out_dir).resolve()
    for secret, what in ((Path(keys_dir).resolve(), "blind keys"), (tokens_dir().resolve(), "rater tokens")):
        if out == secret or secret in out.parents or out in secret.parents:
            relation = ("is" if out == secret else "is inside" if secret in out.parents else "contains")
            raise ExportError(f"{out_dir}: the packets folder {relation} the {what} folder {secret}; packets go to "
                              "raters and must be kept apart from it: choose another folder (e.g. out/<export id>)")


def export(con, out_dir: Path, suite: str, seed: int, export_id: str, keys_dir: Path | None = None,
           items: list[str] | None = None, systems: list[str] | None = None,
           rubric_version: int | None = None) -> dict:
    """Write the packets to ``out_dir`` and the key to ``keys_dir/<export_id>.csv``. Refuses an existing key,
    existing packet files, or an ``out_dir`` that is, holds or lies inside the keys folder (raises ExportError naming
    the file or folder; nothing is written). Returns a summary dict."""
    if not EXPORT_ID.fullmatch(export_id or ""):
        raise ExportError(f"export id {export_id!r}: use letters, digits, '.', '_' and '-' only (it names files)")
    keys_dir = Path(keys_dir) if keys_dir else paths.blind_keys_dir()
    check_out_dir(out_dir, keys_dir)
    key_file = keys_dir / f"{export_id}.csv"
    if key_file.exists():
        raise ExportError(f"{key_file}: an export with id {export_id!r} already exists; choose another --export-id")
    packets, keys = build_packets(con, suite, seed, export_id, items, systems, rubric_version)
    out_dir = Path(out_dir)
    (out_dir / "packets").mkdir(parents=True, exist_ok=True)
    for p in packets:
        for ext in (".json", ".md"):
            f = out_dir / "packets" / f"{p['packet_id']}{ext}"
            if f.exists():
                raise ExportError(f"{f}: already exists; export into an empty folder")
    template = out_dir / "ratings_template.csv"
    if template.exists():
        raise ExportError(f"{template}: already exists; export into an empty folder")
    keys_dir.mkdir(parents=True, exist_ok=True)
    import io

    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=KEY_COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerows(keys)
    _write_new(key_file, buf.getvalue())
    for p in packets:
        _write_new(out_dir / "packets" / f"{p['packet_id']}.json", json.dumps(p, ensure_ascii=False, indent=2))
        _write_new(out_dir / "packets" / f"{p['packet_id']}.md", _packet_markdown(p))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["packet_id", "letter", "rater_id", "criterion", "score", "reason"])
    for p in packets:
        for r in p["replies"]:
            for c in p["criteria"]:
                w.writerow([p["packet_id"], r["letter"], "", c["criterion"], "", ""])
    _write_new(template, buf.getvalue())
    return {"export_id": export_id, "packets": len(packets), "replies": len(keys), "key_file": str(key_file),
            "out_dir": str(out_dir)}
