"""The raw CSV files of each case and how to read them: delimiter and number locale, or why they cannot be read.

A case declares its locale in ``pack/cases.csv`` with three optional columns after the eight standard ones:

- ``csv_delimiter``: ``,`` ``;`` ``tab`` or ``|``; empty -> detected from the header line;
- ``decimal_separator``: ``.`` or ``,``; empty -> ``.``;
- ``thousands_separator``: ``,`` ``.`` ``space`` (U+0020, U+00A0 or U+202F) or ``none``; empty -> ``,`` when the
  decimal separator is ``.``, ``.`` when it is ``,``.

The delimiter is detected unambiguously from the header: the header of ``pos.csv``, ``budget.csv`` and
``inventory.csv`` is a known list of column names that contain none of the candidate delimiters, so exactly one
candidate can split it into that list. Number separators are never guessed (``1,200`` is 1200 in one locale and
1.2 in another): they are declared, or the default applies and an amount written otherwise is flagged unreadable.

``case_files(root)`` lists every ``pack/cases/<case>/{pos,budget,inventory}.csv`` with the delimiter and separators
the warehouse uses to read it, or ``file_problem`` (``file: row 1 (header): ...``) when the file cannot be read:
such a file is not read, its case gets no recomputed values, and every other case is read as usual. The declared
locales come from ``pack/cases.csv`` on disk (``read_case_locales``), or are given (``case_locales`` of the rows of
cases.csv as the warehouse read them: the dbt model base_decisions__case_files passes those of
base_decisions__cases, so the listing reads cases.csv through its declared source).
"""
from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping
from pathlib import Path

from evalhouse.decisions.money import DECIMAL_SEPARATORS, Locale

__all__ = ["FILE_COLUMNS", "HEADERS", "DELIMITERS", "CaseLocale", "case_locales", "read_case_locales",
           "detect_delimiter", "case_files"]

HEADERS = {
    "pos": ["date", "store_id", "channel", "sku", "quantity", "unit_price", "unit_cost", "promo_flag"],
    "budget": ["metric", "amount"],
    "inventory": ["store_id", "sku", "opening_units", "received_units", "counted_closing_units", "unit_cost"],
}
DELIMITERS = {",": ",", ";": ";", "tab": "\t", "|": "|"}  # declared name -> character
FILE_COLUMNS = ["case_id", "file_kind", "source_file", "csv_delimiter", "decimal_separator", "thousands_separator",
                "locale_source", "file_problem"]


class CaseLocale:
    """A case's declared delimiter (None = detect) and number locale, or ``problem`` when the declaration is bad."""

    def __init__(self, delimiter: str | None = None, locale: Locale = Locale(), declared: bool = False,
                 problem: str | None = None):
        self.delimiter, self.locale, self.declared, self.problem = delimiter, locale, declared, problem


def _declared_locale(row: dict, where: str) -> CaseLocale:
    delim = (row.get("csv_delimiter") or "").strip() or None
    dec = (row.get("decimal_separator") or "").strip()
    thousands = (row.get("thousands_separator") or "").strip()
    declared = bool(delim or dec or thousands)
    if delim is not None and delim not in DELIMITERS:
        return CaseLocale(problem=f"{where}:csv_delimiter: {delim!r} is not one of {', '.join(DELIMITERS)}")
    dec = dec or "."
    thousands = thousands or ("." if dec == "," else ",")
    try:
        locale = Locale(dec, thousands)
    except ValueError as exc:
        column = "thousands_separator" if dec in DECIMAL_SEPARATORS else "decimal_separator"
        return CaseLocale(problem=f"{where}:{column}: {exc}")
    return CaseLocale(DELIMITERS[delim] if delim else None, locale, declared)


def case_locales(rows: Iterable[tuple[str, Mapping[str, str | None]]]) -> dict[str, CaseLocale]:
    """case_id -> its CaseLocale, from the rows of ``cases.csv`` in file order, each as (where, row): ``where``
    names the row in problems (``<cases.csv>:<line>``), ``row`` maps column -> text (absent or None: not declared).
    A case listed twice takes its last row."""
    out: dict[str, CaseLocale] = {}
    for where, row in rows:
        cid = (row.get("case_id") or "").strip()
        if cid:
            out[cid] = _declared_locale(row, where)
    return out


def read_case_locales(cases_csv: Path) -> dict[str, CaseLocale]:
    """case_id -> its CaseLocale, from ``cases.csv`` (missing file or columns: defaults)."""
    if not Path(cases_csv).is_file():
        return {}
    with open(cases_csv, newline="", encoding="utf-8-sig") as fh:
        return case_locales((f"{cases_csv}:{line}", row) for line, row in enumerate(csv.DictReader(fh), start=2))


def _first_line(path: Path) -> str | None:
    with open(path, "rb") as fh:
        raw = fh.readline()
    try:
        return raw.decode("utf-8-sig").rstrip("\r\n")
    except UnicodeDecodeError:
        return None


def detect_delimiter(header_line: str, expected: list[str], declared: str | None = None) -> tuple[str | None, str | None]:
    """(delimiter, None) when the header splits into ``expected`` with the declared delimiter (or, undeclared, with
    exactly one candidate); else (None, reason)."""
    def splits(d: str) -> bool:
        return [c.strip() for c in next(csv.reader([header_line], delimiter=d), [])] == expected

    if declared is not None:
        if splits(declared):
            return declared, None
        return None, (f"columns {header_line!r} do not split into {expected} with the declared delimiter "
                      f"{declared!r}")
    found = [d for d in DELIMITERS.values() if splits(d)]
    if len(found) == 1:
        return found[0], None
    return None, f"columns {header_line!r} differ from {expected} with every delimiter ({', '.join(DELIMITERS)})"


def _name(char: str | None) -> str | None:
    return {v: k for k, v in DELIMITERS.items()}.get(char) if char else None


def case_files(root: Path, source_root: str | None = None, locales: dict[str, CaseLocale] | None = None):
    """One row per case CSV file (``FILE_COLUMNS``, all text). ``source_file`` is the path as DuckDB's reader
    names it: ``<source_root>/pack/cases/<case>/<kind>.csv`` (``source_root`` defaults to ``root``). ``locales``:
    the declared locale per case (``case_locales``); default: read from ``<root>/pack/cases.csv``. Only the first
    line of each case CSV is opened (to check its header and detect its delimiter)."""
    import pandas as pd

    root = Path(root)
    prefix = (source_root or str(root)).rstrip("/")
    if locales is None:
        locales = read_case_locales(root / "pack" / "cases.csv")
    rows = []
    for kind, expected in HEADERS.items():
        for path in sorted((root / "pack" / "cases").glob(f"*/{kind}.csv")):
            cid = path.parent.name
            source_file = f"{prefix}/pack/cases/{cid}/{kind}.csv"
            loc = locales.get(cid, CaseLocale())
            delimiter, problem = None, loc.problem
            if problem is None:
                header = _first_line(path)
                if header is None:
                    problem = f"{source_file}: row 1 (header): not UTF-8"
                else:
                    delimiter, why = detect_delimiter(header, expected, loc.delimiter)
                    if why:
                        problem = f"{source_file}: row 1 (header): {why}"
            rows.append({
                "case_id": cid, "file_kind": kind, "source_file": source_file, "csv_delimiter": _name(delimiter),
                "decimal_separator": loc.locale.decimal_separator,
                "thousands_separator": loc.locale.thousands_separator,
                "locale_source": "declared" if loc.declared else "default", "file_problem": problem,
            })
    return pd.DataFrame(rows, columns=FILE_COLUMNS, dtype="object").astype("string")
