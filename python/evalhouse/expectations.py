"""Great Expectations suites on the raw Larkfield inputs (the seed CSVs), run on pandas in an ephemeral context.

`evalhouse validate-raw` and `make test` run them; each failure names the file, the column and the offending
values. The CSVs are read as text (no type guessing), so a stray "2.5" or "yes" is caught, not coerced.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from evalhouse import paths

SCORE_COLUMNS = ["correctness", "completeness", "format_compliance", "appropriate_abstention"]


@dataclass
class Failure:
    file: str
    column: str | None
    expectation: str
    detail: str

    def __str__(self) -> str:
        return f"{self.file}:{self.column or '-'}: {self.expectation} failed: {self.detail}"


def _suites() -> dict[str, list]:
    import great_expectations as gx

    E = gx.expectations
    return {
        "larkfield_answer_keys.csv": [
            E.ExpectColumnValuesToNotBeNull(column="ticket_id"),
            E.ExpectColumnValuesToBeUnique(column="ticket_id"),
            E.ExpectColumnValuesToMatchRegex(column="ticket_id", regex=r"^[A-Z][0-9]{2}$"),
            E.ExpectColumnValuesToBeInSet(column="language", value_set=["en", "fr"]),
            E.ExpectColumnValuesToBeInSet(column="needs_human", value_set=["true", "false"]),
            E.ExpectColumnValuesToNotBeNull(column="category"),
        ],
        "larkfield_replies.csv": [
            E.ExpectColumnValuesToNotBeNull(column="ticket_id"),
            E.ExpectColumnValuesToNotBeNull(column="model_run"),
            E.ExpectColumnValuesToNotBeNull(column="reply_text"),
            E.ExpectCompoundColumnsToBeUnique(column_list=["ticket_id", "model_run"]),
            E.ExpectColumnValuesToBeInSet(column="needs_human", value_set=["true", "false"]),
        ],
        "larkfield_reference_scores.csv": [
            *[E.ExpectColumnValuesToBeInSet(column=c, value_set=["0", "1", "2"]) for c in SCORE_COLUMNS],
            *[E.ExpectColumnValuesToNotBeNull(column=c) for c in SCORE_COLUMNS],
            E.ExpectColumnValuesToBeInSet(column="total", value_set=[str(i) for i in range(9)]),
            E.ExpectColumnValuesToBeInSet(column="ready", value_set=["true", "false"]),
            E.ExpectCompoundColumnsToBeUnique(column_list=["ticket_id", "model_run"]),
        ],
        "larkfield_rubric_anchors.csv": [
            E.ExpectColumnValuesToBeInSet(column="level", value_set=["0", "1", "2"]),
            E.ExpectColumnValuesToNotBeNull(column="anchor"),
            E.ExpectCompoundColumnsToBeUnique(column_list=["rubric_id", "rubric_version", "criterion", "level"]),
        ],
    }


def _cross_file_checks(frames: dict[str, pd.DataFrame]) -> list[Failure]:
    """Checks that span files: every reply and score names a known ticket."""
    out = []
    keys = set(frames["larkfield_answer_keys.csv"]["ticket_id"])
    for name in ("larkfield_replies.csv", "larkfield_reference_scores.csv"):
        unknown = sorted(set(frames[name]["ticket_id"]) - keys)
        if unknown:
            out.append(Failure(name, "ticket_id", "known ticket", f"unknown tickets {unknown}"))
    return out


def validate_larkfield(seed_dir: Path | None = None) -> list[Failure]:
    """Run the suites on the Larkfield CSVs in ``seed_dir`` (default seeds/larkfield); return the failures."""
    os.environ.setdefault("GX_ANALYTICS_ENABLED", "False")  # no usage statistics, no network
    import great_expectations as gx
    from great_expectations.data_context.types.base import ProgressBarsConfig

    seed_dir = Path(seed_dir) if seed_dir else paths.project_dir() / "seeds" / "larkfield"
    context = gx.get_context(mode="ephemeral")
    context.variables.progress_bars = ProgressBarsConfig(globally=False, metric_calculations=False)
    source = context.data_sources.add_pandas("larkfield_raw")
    failures: list[Failure] = []
    frames: dict[str, pd.DataFrame] = {}
    for name, expectations in _suites().items():
        path = seed_dir / name
        try:
            df = pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[""], encoding="utf-8")
        except (OSError, UnicodeDecodeError, pd.errors.ParserError) as exc:
            failures.append(Failure(name, None, "readable CSV", str(exc)))
            continue
        frames[name] = df
        asset = source.add_dataframe_asset(name=name.removesuffix(".csv"))
        batch = asset.add_batch_definition_whole_dataframe("all").get_batch(batch_parameters={"dataframe": df})
        for exp in expectations:
            column = getattr(exp, "column", None)
            if column is not None and column not in df.columns:
                failures.append(Failure(name, column, type(exp).__name__, "column missing"))
                continue
            result = batch.validate(exp)
            if not result.success:
                r = result.result or {}
                detail = (f"{r.get('unexpected_count', '?')} unexpected value(s), e.g. "
                          f"{r.get('partial_unexpected_list', [])[:5]}")
                failures.append(Failure(name, column or ",".join(getattr(exp, "column_list", []) or []),
                                        type(exp).__name__, detail))
    if len(frames) == len(_suites()):
        failures.extend(_cross_file_checks(frames))
    return failures
