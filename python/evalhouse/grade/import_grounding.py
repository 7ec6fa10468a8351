"""One-off import of the two real grounding suites as suite folders (run by a maintainer, not by the build; the
build reads only the suite folders in the repo).

    python -m evalhouse.grade.import_grounding /path/to/shared/data [suites_root]

- TAT-QA (Program-of-Thoughts outputs, 5 configurations x 1,667 questions) -> suites/grade_tatqa/
- GSM8K (Faithful-CoT outputs, 24 configurations x 1,319 questions) -> suites/grade_gsm8k/

Each folder gets the contract tables ``items``, ``responses``, ``response_labels`` and ``gold`` as Parquet (zstd);
its ``suite.yml`` and ``SOURCE.md`` are written by hand. What the answer rules read beyond the shared columns goes
into ``metadata`` JSON: on gold, TAT-QA's ``answer_type``, ``scale`` and the answer's exact JSON (``answer_json``);
on responses, the predicted answer's exact JSON (``answer_json``) and TAT-QA's predicted ``scale``.

Numbers keep their JSON text exactly (``parse_float=str``), so gold values are compared as written, never as
binary floats. Table and passage contexts of TAT-QA (repeated in every record) are dropped; see SOURCE.md.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

TATQA_FILES = {
    "tatqa_s0_e-1_11_08_11_09.jsonl": ("codex_pot", "code-davinci-002", "program of thoughts, 8-shot"),
    "tatqa_cot_s0_e-1_11_11_21_19.jsonl": ("codex_cot", "code-davinci-002", "chain of thought, 8-shot"),
    "tatqa_direct_s0_e-1_11_12_11_46.jsonl": ("codex_direct", "code-davinci-002", "direct answer, 8-shot"),
    "tatqa_cot_gpt3_s0_e-1_11_13_21_05.jsonl": ("gpt3_cot", "text-davinci-002", "chain of thought, 8-shot"),
    "tatqa_direct_gpt3_s0_e-1_11_13_18_15.jsonl": ("gpt3_direct", "text-davinci-002", "direct answer, 8-shot"),
}
GSM8K_LMS = {"code001": "code-davinci-001", "code002": "code-davinci-002", "text002": "text-davinci-002",
             "text003": "text-davinci-003", "gpt-3.5-turbo": "gpt-3.5-turbo", "gpt4": "gpt-4"}


class _Num(str):
    """A JSON number kept as its exact text."""


def _loads(line: str):
    return json.loads(line, parse_float=_Num, parse_int=_Num)


def _as_text(value) -> tuple[str | None, str]:
    """(text, json kind) of a gold / predicted answer: numbers keep their JSON text, lists are ' | '-joined."""
    if value is None:
        return None, "null"
    if isinstance(value, _Num):
        return str(value), "number"
    if isinstance(value, str):
        return value, "string"
    if isinstance(value, list):
        return " | ".join(_as_text(v)[0] or "" for v in value), f"list{len(value)}"
    return json.dumps(value, ensure_ascii=False), type(value).__name__


def import_tatqa(src: Path, out: Path) -> None:
    questions, preds = {}, []
    for fname, (config, model, prompting) in TATQA_FILES.items():
        with open(src / "pot_tatqa" / "outputs" / fname, encoding="utf-8") as fh:
            for line in fh:
                r = _loads(line)
                gold_text, gold_kind = _as_text(r["answer"])
                questions.setdefault(r["question_id"], {
                    "question_id": r["question_id"], "question": r["question"], "answer_type": r["answer_type"],
                    "scale": r["scale"], "gold_answer": gold_text, "gold_json_kind": gold_kind,
                    "derivation": r.get("derivation") or None,
                    "gold_answer_json": json.dumps(json.loads(line)["answer"], ensure_ascii=False)})
                pred_text, pred_kind = _as_text(r.get("pred_answer"))
                gen = r.get("generated")
                preds.append({"config": config, "model": model, "prompting": prompting,
                              "question_id": r["question_id"], "pred_answer": pred_text, "pred_json_kind": pred_kind,
                              "pred_answer_json": json.dumps(json.loads(line).get("pred_answer"), ensure_ascii=False),
                              "pred_scale": _as_text(r.get("pred_scale"))[0],
                              "generated": gen[0] if isinstance(gen, list) and gen else _as_text(gen)[0]})
    write_tatqa_suite(list(questions.values()), preds, out)


def import_gsm8k(src: Path, out: Path) -> None:
    base = src / "faithful_cot_gsm8k"
    questions = []
    with open(base / "data" / "GSM8K" / "test.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            r = json.loads(line)
            m = re.search(r"####\s*(.+)\s*$", r["answer"])
            questions.append({"question_id": str(r["id"]), "question": r["question"],
                              "gold_answer": m.group(1).replace(",", "").strip(), "gold_solution": r["answer"]})
    preds = []
    for d in sorted((base / "output_dir" / "GSM8K" / "test").iterdir()):
        lm, prompt = d.name.rsplit("_", 1)
        with open(d / "predictions.jsonl", encoding="utf-8") as fh:
            for line in fh:
                if not line.strip():
                    continue
                r = json.loads(line)
                preds.append({"config": d.name, "model": GSM8K_LMS[lm], "prompting": prompt,
                              "question_id": str(r["id"]), "answer": None if r["answer"] is None else str(r["answer"]),
                              "completion": r["completion"],
                              "answer_json": json.dumps(r.get("answer"), ensure_ascii=False)})
    write_gsm8k_suite(questions, preds, out)


def _meta(**fields) -> str:
    return json.dumps(fields, ensure_ascii=False)


def _write_tables(tables: dict[str, list[dict]], out: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.mkdir(parents=True, exist_ok=True)
    for name, rows in tables.items():
        columns = list(rows[0])
        table = pa.Table.from_arrays([pa.array([r[c] for r in rows], type=pa.string()) for c in columns], columns)
        pq.write_table(table, out / f"{name}.parquet", compression="zstd", compression_level=19)


def write_tatqa_suite(questions: list[dict], preds: list[dict], out: Path) -> None:
    """TAT-QA questions and PoT predictions as the suite's contract tables.

    Items: task and category = answer type. Gold, one fact ``answer`` per question: arithmetic and count answers
    are numeric facts (tolerance abs 0.005 = half a unit of the gold's 2nd decimal, plus rel 0.001 as in the PoT
    repository's ``finqa_equal``); single-span answers string facts (tolerances 0); multi-span answers span-list
    facts (gold_value ' | '-joined). Responses: ``tatqa-<config>-<question_id>``, text = raw output; the parsed
    prediction is the label ``answer`` (when the output has one)."""
    numeric = ("arithmetic", "count")
    tables = {
        "items": [{"item_id": q["question_id"], "input_text": q["question"], "reference_text": q["gold_answer"],
                   "task": q["answer_type"], "language": "en", "category": q["answer_type"],
                   "metadata": _meta(derivation=q["derivation"])} for q in questions],
        "gold": [{"item_id": q["question_id"],
                  "gold_kind": "numeric_fact" if q["answer_type"] in numeric
                  else "span_list_fact" if q["answer_type"] == "multi-span" else "string_fact",
                  "gold_key": "answer", "gold_value": q["gold_answer"],
                  "abs_tol": "0.005" if q["answer_type"] in numeric else "0",
                  "rel_tol": "0.001" if q["answer_type"] in numeric else "0",
                  "metadata": _meta(answer_type=q["answer_type"], scale=q["scale"], answer_json=q["gold_answer_json"],
                                    json_kind=q["gold_json_kind"])}
                 for q in questions if q["answer_type"] in ("arithmetic", "count", "span", "multi-span")],
    }
    rid = {id(p): f"tatqa-{p['config']}-{p['question_id']}" for p in preds}
    tables["responses"] = [{"response_id": rid[id(p)], "item_id": p["question_id"], "system_id": p["config"],
                            "repetition": "1", "response_text": p["generated"], "raw_output": p["generated"],
                            "is_reference_system": "false",
                            "metadata": _meta(model=p["model"], prompting=p["prompting"],
                                              answer_json=p["pred_answer_json"], json_kind=p["pred_json_kind"],
                                              scale=p["pred_scale"])} for p in preds]
    tables["response_labels"] = [{"response_id": rid[id(p)], "label_name": "answer", "label_value": p["pred_answer"]}
                                 for p in preds if p["pred_answer"] is not None]
    _write_tables(tables, out)


def write_gsm8k_suite(questions: list[dict], preds: list[dict], out: Path) -> None:
    """GSM8K questions and Faithful-CoT predictions as the suite's contract tables.

    Items: reference = the reference solution. Gold: one numeric fact ``answer`` per question (abs 0.01: a cent,
    absorbs binary-float noise such as 70000.00000000001 in program answers, not a wrong rounding such as 22.67
    for 23). Responses: ``gsm8k-<config>-<question_id>``, text = completion; the pipeline's answer is the label
    ``answer`` (when it has one)."""
    tables = {
        "items": [{"item_id": q["question_id"], "input_text": q["question"], "reference_text": q["gold_solution"],
                   "language": "en", "category": "math word problem"} for q in questions],
        "gold": [{"item_id": q["question_id"], "gold_kind": "numeric_fact", "gold_key": "answer",
                  "gold_value": q["gold_answer"], "abs_tol": "0.01", "rel_tol": "0"} for q in questions],
    }
    rid = {id(p): f"gsm8k-{p['config']}-{p['question_id']}" for p in preds}
    tables["responses"] = [{"response_id": rid[id(p)], "item_id": p["question_id"], "system_id": p["config"],
                            "repetition": "1", "response_text": p["completion"], "raw_output": p["completion"],
                            "is_reference_system": "false",
                            "metadata": _meta(model=p["model"], prompting=p["prompting"],
                                              answer_json=p["answer_json"])} for p in preds]
    tables["response_labels"] = [{"response_id": rid[id(p)], "label_name": "answer", "label_value": p["answer"]}
                                 for p in preds if p["answer"] is not None]
    _write_tables(tables, out)


if __name__ == "__main__":
    src = Path(sys.argv[1])
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("suites")
    import_tatqa(src, root / "grade_tatqa")
    import_gsm8k(src, root / "grade_gsm8k")
