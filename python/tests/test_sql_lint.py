"""`make lint` (sqlfluff with the project's .sqlfluff) finds the faults it is configured for in SQL it renders the way
dbt does: planted faults are reported by their rule code, and a clean model written with the project's macros
(union_suites, adapter.dispatch) renders and passes."""
from __future__ import annotations

from pathlib import Path

import pytest

sqlfluff = pytest.importorskip("sqlfluff")

PROJECT = Path(__file__).resolve().parents[2]
CONFIG = str(PROJECT / ".sqlfluff")


def codes(sql: str) -> list[str]:
    return sorted({v["code"] for v in sqlfluff.lint(sql, config_path=CONFIG)})


def test_a_clean_model_with_the_project_macros_passes():
    sql = (
        "-- responses with their item's input\n"
        "with items as (\n"
        "    {{ union_suites('items', ['suite', 'item_id', 'input_text']) }}\n"
        ")\n"
        "\n"
        "select\n"
        "    responses.response_id,\n"
        "    items.input_text,\n"
        "    {{ json_strict('responses.raw_output') }} as is_strict\n"
        "from {{ ref('int_responses') }} as responses\n"
        "inner join items on items.suite = responses.suite and items.item_id = responses.item_id\n"
    )
    assert codes(sql) == []


@pytest.mark.parametrize(("sql", "code"), [
    # a column of both joined tables, unqualified: DuckDB takes either or refuses, a reader cannot tell
    ("select suite, a.x, b.y\nfrom a\ninner join b on a.id = b.id\n", "RF02"),
    # trailing whitespace
    ("select a.x \nfrom a\n", "LT01"),
    # keywords in two cases
    ("select a.x\nFROM a\n", "CP01"),
    # a CTE defined and never read
    ("with unused as (\n    select 1 as x\n)\n\nselect a.x\nfrom a\n", "ST03"),
    # the same output name twice
    ("select a.x, a.y as x\nfrom a\n", "AL08"),
    # an implicit alias (no AS)
    ("select a.x\nfrom tbl a\n", "AL01"),
])
def test_a_planted_fault_is_reported(sql, code):
    assert code in codes(sql)
