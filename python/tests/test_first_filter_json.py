"""The first filter's JSON flags in SQL (macros/first_filter.sql, compiled for DuckDB through the analysis
analyses/first_filter_json_flags.sql) against the Python reference evalhouse.text.checks.json_flags (json.loads with
NaN / Infinity rejected), on generated raw outputs: JSON values with every leniency DuckDB's json_valid has
(trailing commas, NaN / Infinity in any case, unpaired surrogate escapes) inside and outside strings, literals after
commas, exponents, fences tagged json / JSON / python / untagged, prose around fences, two fences, broken JSON."""
from __future__ import annotations

import random

import duckdb
import pytest

from evalhouse.text.checks import json_flags

WORDS = ["ok", "nan", "NaN", "Infinity", "inf", "a, ]", "1,]", "x}", "true", "null", "e5", "caf\u00e9", ""]
ESCAPES = ["\\n", "\\\"", "\\\\", "\\u0041", "\\ud800", "\\uDBFF\\uDC00", "\\u00e9"]
LENIENT = ["NaN", "-Infinity", "Infinity", "nan", "inf", "-inf", "infinity"]


def _string(rng: random.Random) -> str:
    parts = [rng.choice(WORDS) for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.3:
        parts.insert(rng.randint(0, len(parts)), rng.choice(ESCAPES))
    return '"' + " ".join(parts) + '"'


def _number(rng: random.Random) -> str:
    return rng.choice(["0", "-1", "12", "1.5", "2e3", "1.5E+3", "-0.25e-2", str(rng.randint(0, 999))])


def _value(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 2 or roll < 0.35:
        return rng.choice([_string(rng), _number(rng), "true", "false", "null",
                           rng.choice(LENIENT) if rng.random() < 0.15 else "0"])
    items = [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    trailing = "," if items and rng.random() < 0.15 else ""
    sep = rng.choice([", ", ",", ",\n  "])
    if roll < 0.65:
        return "[" + sep.join(items) + trailing + rng.choice(["", " ", "\n"]) + "]"
    pairs = [f"{_string(rng)}: {v}" for v in items]
    return "{" + sep.join(pairs) + trailing + rng.choice(["", " "]) + "}"


def _output(rng: random.Random) -> str:
    body = _value(rng)
    if rng.random() < 0.1:
        body = body[: rng.randint(0, len(body))]  # truncated
    kind = rng.random()
    pad = rng.choice(["", " ", "\n", "  \n"])
    if kind < 0.45:
        return pad + body + pad
    tag = rng.choice(["json", "JSON", "", "python", " json "])
    fence = f"```{tag}\n{body}\n```"
    if kind < 0.7:
        return pad + fence + pad
    if kind < 0.85:
        return "Here it is:\n" + fence + rng.choice(["", "\nThanks."])
    return f"```bash\nls\n```\n{fence}" if rng.random() < 0.5 else f"{fence}\n```json\n{_value(rng)}\n```"


FIXED = ["[1, null]", "[true, false]", '{"a": [1, true]}', '{"a": [1, 2,], "b": "x, ]"}', '{"a": NaN}',
         '["\\ud800"]', '{"a": "1,]", "e": 1.5E+3, "n": null}', "```json\n{\"a\": 1}\n```", "", " ", "null",
         '"nan"', "[nan]", "[1, inf]", "{\"info\": \"financial\"}", "```\n[1, null]\n```",
         '```json\n"a`"\n```', "```\n[1]````", "```json\n[1]\n  ```\n", "```json \n{}```", "```json\r\n[1]\n```"]


def test_sql_json_flags_equal_the_python_reference(portable_sql):
    rng = random.Random(20261202)
    outputs = FIXED + [_output(rng) for _ in range(4000)]
    con = duckdb.connect()
    con.execute("attach ':memory:' as evalhouse")
    con.execute("create table evalhouse.main.json_flag_cases (case_id integer, raw_output varchar)")
    con.executemany("insert into evalhouse.main.json_flag_cases values (?, ?)", list(enumerate(outputs)))
    sql = portable_sql["first_filter_json_flags"].replace("from json_flag_cases", "from evalhouse.main.json_flag_cases")
    rows = con.execute(sql).fetchall()
    got = {r[0]: r[1:4] for r in rows}
    # int_first_filter's form (reusing strict and fenced) equals json_extractable alone
    assert [r for r in rows if r[4] != r[3]] == []
    wrong = []
    for i, text in enumerate(outputs):
        ref = json_flags(text)
        if got[i] != (ref.strict, ref.fenced, ref.extractable):
            wrong.append((text, got[i], (ref.strict, ref.fenced, ref.extractable)))
    assert not wrong, f"{len(wrong)} of {len(outputs)} differ, e.g. {wrong[:5]}"
    # the generator reaches every outcome, and the hand-checked fixed cases
    flags = set(got.values())
    assert {(True, False, True), (False, True, True), (False, False, True), (False, False, False)} <= flags
    assert got[0] == (True, False, True)      # [1, null]: a literal after a comma is JSON
    assert got[1] == (True, False, True)      # [true, false]
    assert got[3] == (False, False, False)    # trailing comma outside the string
    assert got[4] == (False, False, False)    # NaN
    assert got[5] == (True, False, True)      # unpaired surrogate escape: json.loads accepts it
    assert got[7] == (False, True, True)      # a whole json fence
    assert got[15] == (False, True, True)     # [1, null] in an untagged fence


@pytest.mark.parametrize("text", ["[1, null]", "[false, true, null]"])
def test_python_reference_accepts_literals_after_commas(text):
    assert json_flags(text).strict is True
