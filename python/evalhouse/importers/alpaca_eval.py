"""AlpacaEval annotations -> a suite folder's files (items, responses, comparisons).

Reads ``results/<model>/<annotator>/annotations.json`` files of the AlpacaEval repository (tatsu-lab/alpaca_eval;
a JSON list, optionally gzip-compressed), one record per instruction: ``instruction``, ``output_1`` /
``generator_1`` (the baseline), ``output_2`` (the evaluated model), ``preference`` in [1, 2] = 1 + P(judge prefers
output_2), ``annotator``, ``dataset``, and when present ``raw_completion``, ``price_per_example`` (USD),
``time_per_example`` (seconds).

Each annotation file becomes, in ``suites/<suite>/``:

- ``items/alpaca_eval_<sha12>.csv``: the instructions not yet in the suite (``item_id`` = ``i`` + the first 16
  hex digits of the instruction's SHA-256, as every importer names items, so every model's file names the same item);
- ``responses/alpaca_eval_<sha12>.csv``: the model's answers, and the baseline's answers not yet in the suite;
- ``comparisons/alpaca_eval_<sha12>.csv``: one row per record, A = the baseline, B = the model, ``preference`` =
  AlpacaEval's preference - 1 (P(B better)), ``rater_kind`` judge, ``rater_id`` = ``judge_model`` = the annotator,
  ``shown_first`` from the judge's log-probabilities (``raw_completion``: un-swapped when preference = 2 - P(m))
  or, without them, from AlpacaEval's seeded order rule (``random.Random("is_switched_outputs" + instruction +
  "0").choices([False, True])``: True = the model's answer was shown first); cost and latency in ``metadata``.

The model's name (``system_id``) is the ``<model>`` folder of ``results/<model>/<annotator>/annotations.json``, or
the file name before ``.annotations.json``, or ``system`` when given (``generator_2`` is not always the model:
NullModel's is "example"). A file whose model is the baseline (the baseline compared with itself, win rate 50 %
by construction) is refused with that reason. ``reference`` (``model_outputs.json`` of the baseline) gives each
item its AlpacaEval index (``metadata.alpaca_eval_index``); ``difficulty`` (CSV ``index,instruction_difficulty``,
needs ``reference``) adds ``metadata.instruction_difficulty``, the input of the length-controlled win rate.
A folder without ``suite.yml`` gets one (title, the data's licence and attribution, ``baseline``).

All or nothing: every file is checked first; files are written new (never replaced) and removed again if a later
write fails. Idempotent: a file whose SHA-256 was imported before (a ``comparisons`` file names it) is skipped.
"""
from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from evalhouse.files import write_new

__all__ = ["ImportError_", "ImportResult", "import_alpaca_eval", "item_id_of", "shown_first_by_rule"]

TOOL = "alpaca_eval"


class ImportError_(ValueError):
    """An annotation file that cannot be imported (the message names file, row and field)."""


@dataclass
class ImportResult:
    written: list[Path] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)  # one line per skipped file, with the reason
    comparisons: int = 0


def item_id_of(instruction: str) -> str:
    return "i" + hashlib.sha256(instruction.encode("utf-8")).hexdigest()[:16]


def shown_first_by_rule(instruction: str) -> str:
    """AlpacaEval's seeded swap: 'b' (the model's answer first) when the rule switches the outputs, else 'a'."""
    switched = random.Random("is_switched_outputs" + instruction + "0").choices([False, True], k=1)[0]
    return "b" if switched else "a"


def _shown_first_from_logprobs(raw, preference: float) -> str | None:
    """'a' when preference = 2 - P(m) (baseline in slot m, first), 'b' when = 1 + P(m); None when unreadable."""
    try:
        tops = raw["logprobs"]["content"][0]["top_logprobs"]
    except (KeyError, IndexError, TypeError):
        return None
    import math

    probs = {t["token"]: math.exp(t["logprob"]) for t in tops if t.get("token") in ("m", "M")}
    if not probs:
        return None
    p_m = probs.get("m", 0.0) / sum(probs.values())
    if abs(preference - (2 - p_m)) < 1e-6 and abs(preference - (1 + p_m)) >= 1e-6:
        return "a"
    if abs(preference - (1 + p_m)) < 1e-6 and abs(preference - (2 - p_m)) >= 1e-6:
        return "b"
    return None


def _load_json(path: Path):
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw.decode("utf-8")), hashlib.sha256(raw).hexdigest()


def _model_name(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if name == "annotations":
        return path.parent.parent.name
    return name[: -len(".annotations")] if name.endswith(".annotations") else name


def _existing(suite_dir: Path, table: str, column: str) -> set[str]:
    out: set[str] = set()
    for f in sorted((suite_dir / table).glob("*.csv")) + sorted(suite_dir.glob(f"{table}.csv")):
        with open(f, encoding="utf-8-sig", newline="") as fh:
            out.update(r.get(column, "") for r in csv.DictReader(fh))
    return out


def _csv(rows: list[dict]) -> bytes:
    buf = io.StringIO(newline="")
    w = csv.DictWriter(buf, fieldnames=list(rows[0]), lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    return buf.getvalue().encode("utf-8")


def _reference_index(reference: Path | None) -> dict[str, int]:
    if reference is None:
        return {}
    records, _ = _load_json(Path(reference))
    return {r["instruction"]: i for i, r in enumerate(records)}


def _difficulty(path: Path | None) -> dict[int, str]:
    if path is None:
        return {}
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return {int(r["index"]): r["instruction_difficulty"].strip() for r in csv.DictReader(fh)}


def _convert(path: Path, records, sha: str, suite: str, system: str, index: dict, difficulty: dict,
             seen_items: set, seen_responses: set, now: str) -> dict[str, list[dict]]:
    if not isinstance(records, list):
        raise ImportError_(f"{path}: expected a JSON list of annotation records")
    prov = {"source_tool": TOOL, "source_log": str(path), "source_sha256": sha, "imported_at": now}
    items, responses, comparisons = [], [], []
    baseline = None
    for row, rec in enumerate(records, 1):
        where = f"{path}: record {row}"
        for key in ("instruction", "output_1", "output_2", "generator_1", "preference"):
            if key not in rec or rec[key] is None:
                raise ImportError_(f"{where}: missing field {key!r}")
        pref = float(rec["preference"])
        if pref == 0:  # AlpacaEval's legacy encoding of a draw
            pref = 1.5
        if not 1 <= pref <= 2:
            raise ImportError_(f"{where}: field 'preference' is {rec['preference']!r}, outside AlpacaEval's [1, 2]")
        baseline = baseline or rec["generator_1"]
        if rec["generator_1"] != baseline:
            raise ImportError_(f"{where}: field 'generator_1' is {rec['generator_1']!r}; the file's baseline is "
                               f"{baseline!r} (one baseline per file)")
        if system == baseline:
            raise ImportError_(f"{path}: the model {system!r} is the baseline; a file comparing the baseline with "
                               "itself has a win rate of 50 % by construction and is not imported")
        instruction = rec["instruction"]
        item = item_id_of(instruction)
        if item not in seen_items:
            seen_items.add(item)
            meta = {}
            if instruction in index:
                meta["alpaca_eval_index"] = index[instruction]
                if index[instruction] in difficulty:
                    meta["instruction_difficulty"] = float(difficulty[index[instruction]])
            items.append({"item_id": item, "input_text": instruction, "task": rec.get("dataset") or "",
                          "metadata": json.dumps(meta) if meta else "", **prov})
        base_id, model_id = f"{suite}:{baseline}:{item}:1", f"{suite}:{system}:{item}:1"
        if base_id not in seen_responses:
            seen_responses.add(base_id)
            responses.append({"response_id": base_id, "item_id": item, "system_id": baseline,
                              "response_text": rec["output_1"], "raw_output": rec["output_1"], **prov})
        if model_id in seen_responses:
            raise ImportError_(f"{where}: a second answer of {system!r} to this instruction ({model_id})")
        seen_responses.add(model_id)
        cost = rec.get("price_per_example")
        responses.append({"response_id": model_id, "item_id": item, "system_id": system,
                          "response_text": rec["output_2"], "raw_output": rec["output_2"], **prov})
        shown = _shown_first_from_logprobs(rec.get("raw_completion"), pref)
        meta = {"alpaca_eval_preference": rec["preference"], "shown_first_from":
                "raw_completion" if shown else "alpaca_eval_switch_rule"}
        if cost is not None:
            meta.update({"judge_cost": cost, "judge_cost_currency": "USD"})
        if rec.get("time_per_example") is not None:
            meta["judge_latency_s"] = rec["time_per_example"]
        comparisons.append({
            "item_id": item, "response_id_a": base_id, "response_id_b": model_id,
            "rater_id": rec.get("annotator") or "alpaca_eval_judge", "rater_kind": "judge",
            "shown_first": shown or shown_first_by_rule(instruction), "preference": repr(pref - 1),
            "preference_label": "", "reason": "", "rated_at": "",
            "judge_model": rec.get("annotator") or "", "metadata": json.dumps(meta), **prov})
    if not comparisons:
        raise ImportError_(f"{path}: no annotation records")
    return {"items": items, "responses": responses, "comparisons": comparisons}


def baseline_of(planned: list[tuple[Path, bytes]]) -> str:
    for target, data in planned:
        if target.parent.name == "comparisons":
            first = next(csv.DictReader(io.StringIO(data.decode("utf-8"))))
            return first["response_id_a"].split(":")[1]
    return ""


def _suite_yml(name: str, baseline: str) -> bytes:
    return (f"title: AlpacaEval annotations ({name})\n"
            "licence: CC BY-NC 4.0 (AlpacaEval data; answers by the named models, judge outputs by OpenAI models)\n"
            "attribution: Li et al. 2023, AlpacaEval (tatsu-lab/alpaca_eval); Dubois et al. 2024, Length-Controlled "
            "AlpacaEval\n"
            f"baseline: {json.dumps(baseline)}\n").encode("utf-8")


def import_alpaca_eval(files: list[Path], suite_dir: Path, system: str | None = None, reference: Path | None = None,
                       difficulty: Path | None = None) -> ImportResult:
    """Import AlpacaEval annotation files into the suite folder ``suite_dir`` (see the module docstring).

    Returns the files written and the files skipped (already imported). Raises ImportError_ (nothing written) on
    a file that cannot be imported; FileExistsError cannot leave a partial import (written files are removed).
    """
    suite_dir = Path(suite_dir)
    if system and len(files) > 1:
        raise ImportError_("--system names one model: import one file at a time with it")
    if difficulty and not reference:
        raise ImportError_("the difficulty file is indexed by AlpacaEval's instruction order: give the reference "
                           "model_outputs.json too")
    index, diff = _reference_index(reference), _difficulty(difficulty)
    imported = _existing(suite_dir, "comparisons", "source_sha256")
    seen_items = _existing(suite_dir, "items", "item_id")
    seen_responses = _existing(suite_dir, "responses", "response_id")
    now = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    result = ImportResult()
    planned: list[tuple[Path, bytes]] = []
    for f in map(Path, files):
        records, sha = _load_json(f)
        if sha in imported:
            result.skipped.append(f"{f}: already imported (sha256 {sha[:12]})")
            continue
        imported.add(sha)
        tables = _convert(f, records, sha, suite_dir.name, system or _model_name(f), index, diff,
                          seen_items, seen_responses, now)
        for table, rows in tables.items():
            if rows:
                planned.append((suite_dir / table / f"{TOOL}_{sha[:12]}.csv", _csv(rows)))
        result.comparisons += len(tables["comparisons"])
    if planned and not (suite_dir / "suite.yml").exists():
        planned.insert(0, (suite_dir / "suite.yml", _suite_yml(suite_dir.name, baseline_of(planned))))
    try:
        for target, data in planned:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_new(target, data)
            result.written.append(target)
    except BaseException:
        for target in result.written:
            target.unlink(missing_ok=True)
        raise
    return result
