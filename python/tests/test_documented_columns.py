"""Every column the models' YAML documents exists in the built warehouse, and every mart column is documented."""
from pathlib import Path

import yaml  # PyYAML ships with dbt-core

MODELS = Path(__file__).resolve().parents[2] / "models"


def _documented() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for f in sorted(MODELS.rglob("*.yml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8")) or {}
        for m in doc.get("models") or []:
            out.setdefault(m["name"], set()).update(c["name"] for c in m.get("columns") or [])
    return out


def _columns(con, relation: str) -> set[str] | None:
    rows = con.execute("select column_name from information_schema.columns where table_name = ?",
                       [relation]).fetchall()
    return {r[0] for r in rows} or None


def test_every_documented_column_exists(warehouse):
    missing = {}
    for model, cols in _documented().items():
        actual = _columns(warehouse, model)
        if actual is None:  # ephemeral or not built in this warehouse
            continue
        if cols - actual:
            missing[model] = sorted(cols - actual)
    assert missing == {}


def test_every_mart_column_is_documented(warehouse):
    documented = _documented()
    marts = [r[0] for r in warehouse.execute(
        "select table_name from information_schema.tables where table_schema = 'main' "
        "and (table_name like 'fct\\_%' escape '\\' or table_name like 'dim\\_%' escape '\\')").fetchall()]
    assert len(marts) > 30
    undocumented = {m: sorted(_columns(warehouse, m) - documented.get(m, set())) for m in marts}
    assert {m: c for m, c in undocumented.items() if c} == {}
