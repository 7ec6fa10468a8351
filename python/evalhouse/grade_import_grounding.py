"""One-off import of the two real grounding suites into compact Parquet under data/ (run by a maintainer, not by
the build; the build reads only the Parquet files in the repo).

    python -m evalhouse.grade_import_grounding /path/to/shared/data

- TAT-QA (Program-of-Thoughts outputs, 5 configurations x 1,667 questions) -> data/grade_tatqa/
- GSM8K (Faithful-CoT outputs, 24 configurations x 1,319 questions) -> data/grade_gsm8k/

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
    import pyarrow as pa
    import pyarrow.parquet as pq

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
    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(list(questions.values())), out / "questions.parquet", compression="zstd")
    pq.write_table(pa.Table.from_pylist(preds), out / "predictions.parquet", compression="zstd",
                   compression_level=19)


def import_gsm8k(src: Path, out: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

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
    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pylist(questions), out / "questions.parquet", compression="zstd",
                   compression_level=19)
    pq.write_table(pa.Table.from_pylist(preds), out / "predictions.parquet", compression="zstd",
                   compression_level=19)


if __name__ == "__main__":
    src = Path(sys.argv[1])
    root = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("data")
    import_tatqa(src, root / "grade_tatqa")
    import_gsm8k(src, root / "grade_gsm8k")
