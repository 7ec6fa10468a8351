"""macros/spark_seed_fix.sql: dbt-spark's seed loader inlines every value as '{value}' with no escaping (an empty cell
becomes the string 'None', a quote breaks the statement, a backslash is halved, a number goes through a float). The
override renders each cell with spark_seed_literal: checked here on the rendered SQL (always), and on a local Spark
session when pyspark and Java are present (the literal must come back as the cell's exact value)."""
from __future__ import annotations

import shutil
from decimal import Decimal
from pathlib import Path

import jinja2
import pytest

PROJECT = Path(__file__).resolve().parents[2]

# (cell as agate gives it, column type, the value Spark must give back)
CELLS = [
    (None, "string", None),                                   # empty cell: NULL, not 'None'
    (None, "decimal(18,4)", None),
    ("it's \"quoted\"", "string", "it's \"quoted\""),          # quotes
    ("C:\\data\\d+", "string", "C:\\data\\d+"),                # backslashes kept, \d not eaten
    (Decimal("12345678901234.5678"), "decimal(18,4)", Decimal("12345678901234.5678")),  # no float on the way
    (Decimal("99999999999999.9999"), "decimal(18,4)", Decimal("99999999999999.9999")),
    (Decimal("0.000000000001"), "decimal(18,12)", Decimal("0.000000000001")),
    (True, "boolean", True),
    (Decimal("7"), "integer", 7),
]


@pytest.fixture(scope="module")
def literal():
    env = jinja2.Environment(extensions=["jinja2.ext.do"])
    module = env.from_string((PROJECT / "macros" / "spark_seed_fix.sql").read_text()).module
    return lambda value, type_: str(module.spark_seed_literal(value, type_)).strip()


def test_empty_cells_are_typed_nulls(literal):
    assert literal(None, "string") == "cast(null as string)"
    assert literal(None, "decimal(18,4)") == "cast(null as decimal(18,4))"


def test_quotes_and_backslashes_are_escaped(literal):
    assert literal("it's", "string") == "cast('it\\'s' as string)"
    assert literal("a\\b", "string") == "cast('a\\\\b' as string)"


def test_numbers_keep_their_digits(literal):
    assert literal(Decimal("12345678901234.5678"), "decimal(18,4)") == "cast('12345678901234.5678' as decimal(18,4))"
    assert literal(True, "boolean") == "cast('true' as boolean)"


def _spark_available() -> bool:
    try:
        import pyspark  # noqa: F401
    except ImportError:
        return False
    return shutil.which("java") is not None


@pytest.mark.skipif(not _spark_available(), reason="pyspark (make spark-setup) or Java not available")
def test_literals_round_trip_on_spark(literal, tmp_path):
    from pyspark.sql import SparkSession

    spark = (SparkSession.builder.master("local[1]").config("spark.ui.enabled", "false")
             .config("spark.sql.warehouse.dir", str(tmp_path)).getOrCreate())
    try:
        # dbt-spark runs with ANSI off: a literal that does not fit its type would come back NULL, not fail
        spark.sql("set spark.sql.ansi.enabled=false")
        sql = "select " + ", ".join(f"{literal(v, t)} as c{i}" for i, (v, t, _) in enumerate(CELLS))
        row = spark.sql(sql).collect()[0]
        for i, (_, type_, expected) in enumerate(CELLS):
            assert row[f"c{i}"] == expected, (type_, row[f"c{i}"], expected)
    finally:
        spark.stop()
