"""GRADE text rules: case folding macro vs str.casefold, number extraction (Python and SQL pattern agree)."""
import re
from decimal import Decimal
from pathlib import Path

import duckdb
import pytest

from evalhouse.grade.text import (
    NUMBER_PATTERN,
    casefold_sql,
    metric_number,
    number_tokens,
    parse_number_token,
    read_macro_pairs,
)

ROOT = Path(__file__).resolve().parents[2]


def test_casefold_macro_equals_python_casefold_on_every_code_point():
    pairs = read_macro_pairs(ROOT / "macros" / "grade_casefold.sql")
    assert len(pairs) > 150 and ("ß", "ss") in pairs
    chars = [chr(i) for i in range(0x110000) if not 0xD800 <= i <= 0xDFFF]
    con = duckdb.connect()
    got = con.execute(f"select ch, {casefold_sql('ch', pairs)} from (select unnest($1) as ch)", [chars]).fetchall()
    wrong = [(hex(ord(c)), f, c.casefold()) for c, f in got if f != c.casefold()]
    assert [w[0] for w in wrong] == ["0x130"]  # documented: U+0130 folds to 'i', Python gives 'i̇'


def test_casefold_examples():
    pairs = read_macro_pairs(ROOT / "macros" / "grade_casefold.sql")
    con = duckdb.connect()

    def fold(s):
        return con.execute(f"select {casefold_sql('$1', pairs)}", [s]).fetchone()[0]

    assert fold("Große Allee") == fold("GROSSE ALLEE") == "grosse allee"
    assert fold("ΣΑΣ") == fold("σας") and fold("ST-0042") != fold("ST-42")


def test_sql_macro_uses_the_python_pattern():
    macro = (ROOT / "macros" / "grade.sql").read_text(encoding="utf-8")
    m = re.search(r"macro grade_number_pattern\(\) -%\}\n(.*)\n\{%- endmacro", macro)
    assert m.group(1) == NUMBER_PATTERN
    con = duckdb.connect()
    text = "(42). -5 and 149, $-94 -$12.6 million 60% 1,234.5 ST-0042 1e-9 11.98 %"
    sql = con.execute(f"select regexp_extract_all($1, '{NUMBER_PATTERN}', 2)", [text]).fetchone()[0]
    assert sql == number_tokens(text)


@pytest.mark.parametrize("text,tokens", [
    ("149", ["149"]),                 # never 49
    ("x149 and 149", ["149"]),        # a number glued to a letter is not a number
    ("-5", ["-5"]),                   # the sign is kept
    ("(42).", ["42"]),                # parentheses and the full stop are not part of it
    ("60%", ["60%"]),                 # percent stays a percent
    ("-$12.6 million", ["-$12.6"]),
    ("$-94", ["$-94"]),
    ("ST-0042", ["0042"]),            # hyphen after a letter is not a sign
    ("2019-2020", ["2019", "2020"]),  # a hyphen after a digit separates, it is no sign: never -2020
    ("1e-9", ["1e-9"]),
    ("1,234,567.5", ["1,234,567.5"]),
])
def test_number_tokens(text, tokens):
    assert number_tokens(text) == tokens


def test_parse_number_token():
    assert parse_number_token("60%") == (Decimal("60"), True)
    assert parse_number_token("-$12.6") == (Decimal("-12.6"), False)
    assert parse_number_token("1,234.5") == (Decimal("1234.5"), False)
    assert parse_number_token("1e-9")[0] == Decimal("1e-9")


def test_metric_number():
    assert metric_number("(192).") == 192.0
    assert metric_number("11.98 %") == 11.98
    assert metric_number("T-007") is None
    assert metric_number("3 of 5") is None
    assert metric_number(None) is None
