"""Rebuild data/sottana/*.parquet from the seq2seq_llm_evaluation release (dev-time only; the build reads Parquet).

Usage: python data/sottana/prepare.py /path/to/seq2seq_gpt4_eval   (the folder holding data/outputs/...)

sottana_outputs.parquet  one row per task x item x displayed output (summary_1..summary_4): the source text and the
                         output text as shown to raters; system_position = j of summary_j. Taken from the first
                         human file that holds the item (all raters saw the same texts; checked here).
sottana_human.parquet    one row per task x study x rater x item x label key: the Potato button name and the raw
                         button value as text (GEC values still 1-based). Attention-check items are kept (item ids
                         `attention_check_*`); staging drops them. `*.html` lines of annotation_order.txt are pages,
                         not items, and are never in annotated_instances.jsonl.
sottana_gpt4.parquet     one row per task x item x system x criterion of GPT-4's output.jsonl, raw value as text
                         (ints, 4.5, "2 or more", "Minor over-correction" ...).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

TASK_SYSTEMS = {
    "summarization": ["gold_reference", "bigscience/T0pp", "text-davinci-003", "gpt-3.5-turbo"],
    "simplification": ["gold_reference", "google/flan-t5-xxl", "davinci-instruct-beta", "gpt-3.5-turbo"],
    "gec": ["gold_reference", "opt-iml-max-30b", "text-davinci-003", "gpt-3.5-turbo"],
}


def main(src: Path, out: Path) -> None:
    base = src / "data" / "outputs" / "potato_and_GPT4_full_annotations"
    outputs, human, gpt4 = {}, [], []
    for task, systems in TASK_SYSTEMS.items():
        for study_dir in sorted(base.glob(f"{task}_evaluation_*_of_*")):
            study = study_dir.name
            for inst in sorted(study_dir.glob("annotation_output/*/annotated_instances.jsonl")):
                rater = inst.parent.name
                rel = inst.relative_to(src).as_posix()
                for line_no, line in enumerate(inst.read_text(encoding="utf-8").splitlines(), start=1):
                    if not line.strip():
                        continue
                    rec = json.loads(line)
                    item = rec["id"]
                    for j, system in enumerate(systems, start=1):
                        key = (task, item, j)
                        row = (task, item, j, system, rec["displayed_text"], rec[f"summary_{j}"])
                        if key in outputs and outputs[key] != row and not item.startswith("attention_check"):
                            raise ValueError(f"{rel}:{line_no}: texts of {item} summary_{j} differ between raters")
                        outputs.setdefault(key, row)
                    for label_key, buttons in rec["label_annotations"].items():
                        if len(buttons) != 1:
                            raise ValueError(f"{rel}:{line_no}: {label_key} has {len(buttons)} values, expected 1")
                        (button, value), = buttons.items()
                        human.append((task, study, rater, item, label_key, button, str(value), rel, line_no))
        gfile = next(base.glob(f"{task}_evaluation_1_of_*/gpt4_as_annotator/output.jsonl"))
        rel = gfile.relative_to(src).as_posix()
        for line_no, line in enumerate(gfile.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            rec = json.loads(line)
            for system in systems:
                for criterion, value in rec[system].items():
                    gpt4.append((task, rec["id"], system, criterion, str(value), rel, line_no))
    pd.DataFrame(list(outputs.values()), columns=["task", "item_raw_id", "system_position", "system_id",
                                                  "source_text", "output_text"]) \
        .to_parquet(out / "sottana_outputs.parquet", index=False, compression="zstd")
    pd.DataFrame(human, columns=["task", "study", "rater", "item_raw_id", "label_key", "button", "value",
                                 "source_file", "source_line"]) \
        .to_parquet(out / "sottana_human.parquet", index=False, compression="zstd")
    pd.DataFrame(gpt4, columns=["task", "item_raw_id", "system_id", "criterion", "value", "source_file",
                                "source_line"]) \
        .to_parquet(out / "sottana_gpt4.parquet", index=False, compression="zstd")
    print(f"outputs {len(outputs)}, human {len(human)}, gpt4 {len(gpt4)}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(__file__).resolve().parent)
