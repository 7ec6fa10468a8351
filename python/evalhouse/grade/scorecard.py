"""GRADE scorecard: ``results.json`` (validated against ``schemas/grade_results.schema.json``) and a Markdown
scorecard, built from the published warehouse's GRADE marts (read-only).

Aggregation (methodology "Aggregation"): task scores = mean over runs; track, pack and overall = mean of task
scores; composite = project-weighted sum of that level's dimension scores. All values come from the marts; this
module only reshapes them, except the leaderboard's 95% intervals and rank bands, computed from the task scores
shown by ``evalhouse.grade.intervals.composite_intervals_table`` (the function, seed and threshold of the
fct_grade__composite_intervals mart, so a whole-warehouse scorecard has the mart's values, and a one-pack scorecard
gets intervals over that pack's tasks).
"""
from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

DIMENSIONS = ["grounding_accuracy", "insight_quality", "evidence_linkage", "calibration_limitation_handling",
              "consistency", "structure_usability"]
LABELS = {"grounding_accuracy": "Grounding", "insight_quality": "Insight", "evidence_linkage": "Evidence",
          "calibration_limitation_handling": "Calibration", "consistency": "Consistency",
          "structure_usability": "Structure"}
SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "grade_results.schema.json"


class ResultsInvalid(ValueError):
    """results.json does not conform to the shipped JSON Schema."""


def _num(v):
    if v is None:
        return None
    return float(v) if isinstance(v, (Decimal, float, int)) else v


def _rows(con, sql: str, params=None) -> list[dict]:
    cur = con.execute(sql, params or [])
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def _level(row: dict) -> dict:
    out = {"dimensions": {d: _num(row[d]) for d in DIMENSIONS}, "composite": _num(row["composite"]),
           "n_tasks": int(row["n_tasks"]), "missing_dimensions": row.get("missing_dimensions")}
    if "mean_task_composite" in row:
        out["mean_task_composite"] = _num(row["mean_task_composite"])
    return out


def build_results(con, pack_id: str | None = None) -> dict:
    """The results document from an open (read-only) warehouse connection; ``pack_id`` limits it to one pack
    (then overall = that pack's scores)."""
    weights = {r["dimension"]: _num(r["weight"])
               for r in _rows(con, "select dimension, weight from grade_dimension_weights")}
    where = "where pack_id = ?" if pack_id else ""
    params = [pack_id] if pack_id else []
    packs = _rows(con, f"select pack_id, any_value(pack_title) as title, any_value(is_synthetic) as synthetic, "
                       f"count(*) as n_tasks from dim_grade__tasks {where} group by pack_id order by pack_id", params)
    if not packs:
        raise ValueError(f"no GRADE pack {pack_id!r} in the warehouse" if pack_id else "no GRADE pack in the warehouse")
    if pack_id:
        overall = _rows(con, "select * exclude (pack_id) from fct_grade__pack_scores where pack_id = ? "
                             "order by system_id", params)
    else:
        overall = _rows(con, "select * from fct_grade__overall_scores order by system_id")
    pack_rows = _rows(con, f"select * from fct_grade__pack_scores {where} order by system_id, pack_id", params)
    track_rows = _rows(con, f"select * from fct_grade__track_scores {where} order by system_id, pack_id, track", params)
    task_rows = _rows(con, f"select * from fct_grade__task_scores {where} order by system_id, pack_id, track, task_id",
                      params)
    models = []
    for o in overall:
        m = o["system_id"]
        models.append({
            "model": m,
            "overall": _level(o),
            "packs": [{"pack_id": r["pack_id"], **_level(r)} for r in pack_rows if r["system_id"] == m],
            "tracks": [{"pack_id": r["pack_id"], "track": int(r["track"]), **_level(r)}
                       for r in track_rows if r["system_id"] == m],
            "tasks": [{"pack_id": r["pack_id"], "task_id": r["task_id"], "track": int(r["track"]),
                       "n_runs": int(r["n_repetitions"]), "dimensions": {d: _num(r[d]) for d in DIMENSIONS},
                       "composite": _num(r["composite"]), "rubric_composite": _num(r["rubric_composite"]),
                       "missing_dimensions": r["missing_dimensions"]}
                      for r in task_rows if r["system_id"] == m],
        })
    ranked = sorted(models, key=lambda x: (x["overall"]["composite"] is None, -(x["overall"]["composite"] or 0),
                                           x["model"]))
    bands = _rank_bands(con, task_rows, weights)
    leaderboard = [{"rank": i + 1, "model": x["model"], "composite": x["overall"]["composite"],
                    **bands.get(x["model"], {})} for i, x in enumerate(ranked)]
    return {"schema_version": "1.0", "generator": "evalhouse scorecard (GRADE)", "weights": weights,
            "packs": [{"pack_id": p["pack_id"], "title": p["title"], "synthetic": p["synthetic"],
                       "n_tasks": int(p["n_tasks"])} for p in packs],
            "leaderboard": leaderboard, "models": models}


def _rank_bands(con, task_rows: list[dict], weights: dict) -> dict[str, dict]:
    """Per model: 95% interval of the composite over its tasks, tie group, rank band, rank range and the reason it
    is not ranked (evalhouse.grade.intervals). The minimum of tasks is the mart's (var min_tasks_for_interval)
    when fct_grade__composite_intervals is built, else 5."""
    import pandas as pd

    from evalhouse.grade.intervals import composite_intervals_table

    if not task_rows or any(weights.get(d) is None for d in DIMENSIONS):
        return {}
    min_tasks = 5
    if con.execute("select count(*) from information_schema.tables where table_schema = 'main' "
                   "and table_name = 'fct_grade__composite_intervals'").fetchone()[0]:
        found = con.execute("select max(min_tasks_for_interval) from fct_grade__composite_intervals").fetchone()[0]
        min_tasks = int(found) if found is not None else min_tasks
    frame = pd.DataFrame([{"pack_id": r["pack_id"], "task_id": r["task_id"], "system_id": r["system_id"],
                           **{d: _num(r[d]) for d in DIMENSIONS}} for r in task_rows])
    table = composite_intervals_table(frame, weights, min_tasks=min_tasks)

    def clean(v):
        return None if pd.isna(v) else v

    return {r["system_id"]: {"ci_low": clean(r["composite_ci_low"]), "ci_high": clean(r["composite_ci_high"]),
                         "tie_group": None if pd.isna(r["tie_group"]) else int(r["tie_group"]),
                         "rank_band": clean(r["rank_band"]), "rank_range": clean(r["rank_range"]),
                         "rank_reason": clean(r["rank_reason"])}
            for r in table.to_dict("records")}


def validate_results(doc: dict, schema_path: Path = SCHEMA_PATH) -> None:
    """Raise ResultsInvalid listing every schema violation (path and message)."""
    import jsonschema

    schema = json.loads(Path(schema_path).read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        lines = [f"{'/'.join(str(p) for p in e.absolute_path) or '(root)'}: {e.message}" for e in errors[:20]]
        raise ResultsInvalid(f"results.json does not conform to {schema_path.name}:\n" + "\n".join(lines))


def _f(v, digits=3) -> str:
    return "n/a" if v is None else f"{v:.{digits}f}"


def render_markdown(doc: dict) -> str:
    synthetic = any(p.get("synthetic") for p in doc["packs"])
    lines = ["# GRADE scorecard", ""]
    if synthetic:
        lines += ["> **Contains SYNTHETIC packs** (generated example data and model outputs): not a real evaluation.",
                  ""]
    lines += ["Packs: " + ", ".join(f"`{p['pack_id']}` ({p['n_tasks']} tasks)" for p in doc["packs"]), "",
              "Weights: " + ", ".join(f"{LABELS[d]} {doc['weights'][d]:.2f}" for d in DIMENSIONS), "",
              "## Leaderboard (overall composite)", "",
              "| Rank | Model | Composite | 95% CI | Rank band | " + " | ".join(LABELS[d] for d in DIMENSIONS) + " |",
              "|---:|---|---:|---|---|" + "---:|" * len(DIMENSIONS)]
    by_model = {m["model"]: m for m in doc["models"]}
    for row in doc["leaderboard"]:
        o = by_model[row["model"]]["overall"]
        ci = (f"{_f(row['ci_low'])}-{_f(row['ci_high'])}" if row.get("ci_low") is not None else "n/a")
        band = row.get("rank_band") or f"not ranked ({row.get('rank_reason') or 'no interval'})"
        lines.append(f"| {row['rank']} | {row['model']} | {_f(row['composite'])} | {ci} | {band} | "
                     + " | ".join(_f(o["dimensions"][d]) for d in DIMENSIONS) + " |")
    tracks = range(1, 6)
    lines += ["", "## By track (composite)", "", "| Model | Pack | " + " | ".join(f"Track {t}" for t in tracks) + " |",
              "|---|---|" + "---:|" * 5]
    for m in doc["models"]:
        for p in m["packs"]:
            by_track = {t["track"]: t for t in m["tracks"] if t["pack_id"] == p["pack_id"]}
            lines.append(f"| {m['model']} | {p['pack_id']} | "
                         + " | ".join(_f(by_track[t]["composite"]) if t in by_track else "" for t in tracks) + " |")
    lines += ["", "## Tasks (composite / grounding / consistency)", "",
              "| Model | Task | Track | Composite | Grounding | Consistency | Missing |",
              "|---|---|---:|---:|---:|---:|---|"]
    for m in doc["models"]:
        for t in m["tasks"]:
            lines.append(f"| {m['model']} | {t['pack_id']}/{t['task_id']} | {t['track']} | {_f(t['composite'])} | "
                         f"{_f(t['dimensions']['grounding_accuracy'])} | {_f(t['dimensions']['consistency'])} | "
                         f"{t['missing_dimensions'] or ''} |")
    lines += ["", "Composite = weighted sum of the level's dimension scores; track / pack / overall dimension scores "
              "are means of task scores; task scores are means over runs. 95% CI: percentile bootstrap over tasks "
              "(2,000 resamples, seed 0); models whose intervals overlap, directly or through a chain, share a tie "
              "group and its rank band (positions first-last).", ""]
    return "\n".join(lines)


def write_scorecard(con, out_dir: Path, pack_id: str | None = None) -> tuple[Path, Path]:
    """Build, validate (before writing anything) and write results.json and scorecard.md into out_dir."""
    doc = build_results(con, pack_id)
    validate_results(doc)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    results = out_dir / "results.json"
    md = out_dir / "scorecard.md"
    results.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    md.write_text(render_markdown(doc), encoding="utf-8")
    return results, md
