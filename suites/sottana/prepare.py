"""Rebuild the suite files of suites/sottana/ from the seq2seq_llm_evaluation release (dev-time only).

Usage: python suites/sottana/prepare.py /path/to/seq2seq_gpt4_eval   (the folder holding data/outputs/...)

The build never runs this script: it reads the Parquet files it writes, as every suite's files, through
`evalhouse suite land` (suites/README.md). Files written beside this script (Parquet, zstd):

items.parquet      one row per task x source text (100 per task): item_id = sottana-<task>-<first 16 characters of
                   the release's id>, task, language en, input_text = the source text as shown to the raters,
                   reference_text = the gold reference output. metadata: {"release_id": full id}.
responses.parquet  one row per item x displayed output summary_j (j = 1..4, fixed order per task, TASK_SYSTEMS):
                   response_id = <item_id>-<j>, system_id, response_text = raw_output = the text as shown;
                   is_reference_system true for gold_reference.
ratings.parquet    one row per output x criterion x rater: the three Prolific raters (rater_id prolific_<first 5
                   characters>, rater_kind human) and GPT-4 (rater_id gpt-4, rater_kind judge). Potato label key
                   `criterion` is summary_1, `criterion_<j>` is summary_j. GEC grammaticality and overcorrection
                   human buttons are 1-based in the release: 1 is subtracted (0 / 1 / 2 or more errors; No ..
                   Substantial over-correction). GPT-4's GEC text answers are mapped to the same scales
                   (JUDGE_VALUE_MAP, as the authors do); numbers are kept as given (six 4.5 values, unrounded).
                   source_log = the release file, metadata = {"source_line": line, "raw_value": value as in the
                   file, "button": Potato button name, "study": study folder} (button / study for humans only).

Attention-check items (ids `attention_check_*`) are not data and are left out; `*.html` lines of
annotation_order.txt are pages, not items, and are never in annotated_instances.jsonl. The texts of one item are
checked to be identical across raters.
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
# Human GEC buttons are 1-based; the rubric's scales are 0-based.
ONE_BASED = {("gec", "grammaticality"), ("gec", "overcorrection")}
# GPT-4's GEC text answers on the rubric's scales (the authors' mapping, instructions in the release).
JUDGE_VALUE_MAP = {
    ("gec", "grammaticality"): {"0": 0, "1": 1, "2 or more": 2},
    ("gec", "overcorrection"): {"No": 0, "Minor over-correction": 1, "Moderate over-correction": 2,
                                "Substantial over-correction": 3},
}
BASE = Path("data") / "outputs" / "potato_and_GPT4_full_annotations"


def item_id(task: str, release_id: str) -> str:
    return f"sottana-{task}-{release_id[:16]}"


def _human_score(task: str, criterion: str, value: str, where: str) -> str:
    if (task, criterion) in ONE_BASED:
        if not value.strip().isdigit():
            raise ValueError(f"{where}: {criterion} button value {value!r} is not a whole number")
        return str(int(value) - 1)
    return value


def _judge_score(task: str, criterion: str, value: str, where: str) -> str:
    mapping = JUDGE_VALUE_MAP.get((task, criterion))
    if mapping is None:
        return value
    if value not in mapping:
        raise ValueError(f"{where}: GPT-4 {criterion} answer {value!r} is not one of {list(mapping)}")
    return str(mapping[value])


def _split_label_key(label_key: str) -> tuple[str, int]:
    """Potato label key -> (criterion, j of summary_j): `criterion` is summary_1, `criterion_<j>` summary_j."""
    if label_key[-2:] in ("_2", "_3", "_4"):
        return label_key[:-2], int(label_key[-1])
    return label_key, 1


def read_release(src: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    base = src / BASE
    items, responses, ratings = {}, {}, []
    for task, systems in TASK_SYSTEMS.items():
        studies = sorted(base.glob(f"{task}_evaluation_*_of_*"))
        if not studies:
            raise FileNotFoundError(f"no {task}_evaluation_*_of_* folder under {base}")
        for study_dir in studies:
            for inst in sorted(study_dir.glob("annotation_output/*/annotated_instances.jsonl")):
                rater = inst.parent.name
                rel = inst.relative_to(src).as_posix()
                for line_no, line in enumerate(inst.read_text(encoding="utf-8").splitlines(), start=1):
                    if not line.strip():
                        continue
                    rec = json.loads(line)
                    if rec["id"].startswith("attention_check"):
                        continue
                    where = f"{rel}:{line_no}"
                    iid = item_id(task, rec["id"])
                    item = {"item_id": iid, "task": task, "language": "en", "input_text": rec["displayed_text"],
                            "reference_text": rec["summary_1"],
                            "metadata": json.dumps({"release_id": rec["id"]})}
                    if items.setdefault(iid, item) != item:
                        raise ValueError(f"{where}: texts of item {rec['id']} differ between raters")
                    for j, system in enumerate(systems, start=1):
                        resp = {"response_id": f"{iid}-{j}", "item_id": iid, "system_id": system,
                                "repetition": 1, "response_text": rec[f"summary_{j}"],
                                "raw_output": rec[f"summary_{j}"], "is_reference_system": system == "gold_reference"}
                        if responses.setdefault(resp["response_id"], resp) != resp:
                            raise ValueError(f"{where}: texts of {rec['id']} summary_{j} differ between raters")
                    for label_key, buttons in rec["label_annotations"].items():
                        if len(buttons) != 1:
                            raise ValueError(f"{where}: {label_key} has {len(buttons)} values, expected 1")
                        (button, value), = buttons.items()
                        criterion, j = _split_label_key(label_key)
                        ratings.append({
                            "response_id": f"{iid}-{j}", "rater_id": f"prolific_{rater[:5]}", "rater_kind": "human",
                            "criterion": criterion, "score": _human_score(task, criterion, str(value), where),
                            "rubric_id": f"sottana_{task}", "rubric_version": 1, "judge_model": None,
                            "source_log": rel,
                            "metadata": json.dumps({"source_line": line_no, "raw_value": str(value),
                                                    "button": button, "study": study_dir.name})})
        gfile = next(base.glob(f"{task}_evaluation_1_of_*/gpt4_as_annotator/output.jsonl"))
        rel = gfile.relative_to(src).as_posix()
        for line_no, line in enumerate(gfile.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            rec = json.loads(line)
            iid = item_id(task, rec["id"])
            for j, system in enumerate(systems, start=1):
                for criterion, value in rec[system].items():
                    ratings.append({
                        "response_id": f"{iid}-{j}", "rater_id": "gpt-4", "rater_kind": "judge",
                        "criterion": criterion,
                        "score": _judge_score(task, criterion, str(value), f"{rel}:{line_no}"),
                        "rubric_id": f"sottana_{task}", "rubric_version": 1, "judge_model": "gpt-4",
                        "source_log": rel,
                        "metadata": json.dumps({"source_line": line_no, "raw_value": str(value)})})
    return (pd.DataFrame(list(items.values())), pd.DataFrame(list(responses.values())), pd.DataFrame(ratings))


def main(src: Path, out: Path) -> None:
    items, responses, ratings = read_release(src)
    for name, frame in (("items", items), ("responses", responses), ("ratings", ratings)):
        frame.to_parquet(out / f"{name}.parquet", index=False, compression="zstd")
    print(f"items {len(items)}, responses {len(responses)}, ratings {len(ratings)} "
          f"({(ratings['rater_kind'] == 'human').sum()} human, {(ratings['rater_kind'] == 'judge').sum()} judge)")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(__file__).resolve().parent)
