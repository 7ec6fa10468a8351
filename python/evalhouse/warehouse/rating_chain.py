"""The Python side of the per-suite models of the incremental rating chain (macros/rating_chain.sql,
``rating_chain_suite_models``: int_reliability_cells, fct_judge_human_agreement, fct_judge_diagnostics,
fct_system_rankings).

Each row of those models summarises a whole suite's ratings, so an incremental run recomputes whole suites: the
suites of the rating groups listed in int_rating_changes, or every suite when one of them names none. The model's
pre-hook (``rating_chain_delete('suite')``) has deleted those suites' rows; the model computes them again from its
inputs restricted to those suites, and dbt inserts them. A model calls, with its own ``dbt.ref`` (dbt reads a
Python model's refs from its file)::

    suites = changed_suites(dbt.ref("int_rating_changes"), dbt.is_incremental)
    if suites == []:
        return unchanged(session, dbt.this)
    result = compute(in_suites(dbt.ref("int_reliability_cells"), suites))
    return result if suites is None else as_stored(session, result, dbt.this)
"""
from __future__ import annotations

__all__ = ["changed_suites", "in_suites", "unchanged", "as_stored"]


def changed_suites(changes, incremental: bool) -> list[str] | None:
    """The suites this run recomputes, sorted: in an incremental run the distinct suites of ``changes`` (the
    int_rating_changes relation; ``[]`` when nothing changed); None (every suite) in a full build or when a changed
    group has no suite (the same condition as the macro ``changed_suites``)."""
    if not incremental:
        return None
    suites = [row[0] for row in changes.project("suite").distinct().fetchall()]
    if any(suite is None for suite in suites):
        return None
    return sorted(suites)


def _literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def in_suites(relation, suites: list[str] | None):
    """``relation`` (a DuckDB relation with a ``suite`` column) restricted to ``suites``; as it is when None."""
    if suites is None:
        return relation
    if not suites:
        return relation.filter("false")
    return relation.filter(f"suite in ({', '.join(_literal(s) for s in suites)})")


def unchanged(session, this):
    """No suite to recompute: no rows, with the stored table's columns (dbt then inserts nothing)."""
    return session.sql(f"select * from {this} where false")


def as_stored(session, result, this):
    """``result`` (a pandas DataFrame, an Arrow table or a DuckDB relation) as a relation with the stored table's
    columns, in its order and cast to its types: a few suites' rows can leave a column all NULL, which pandas and
    Arrow type otherwise (object, null), and the incremental model fails on any type change (on_schema_change).
    A column missing from ``result`` is an error (Binder Error naming it)."""
    import duckdb

    stored = session.sql(f"select * from {this} where false")
    if isinstance(result, duckdb.DuckDBPyRelation):
        rows = result
    elif hasattr(result, "schema") and hasattr(result, "num_rows"):
        rows = session.from_arrow(result)
    else:
        rows = session.from_df(result)
    return rows.project(", ".join(f'cast("{name}" as {dtype}) as "{name}"'
                                  for name, dtype in zip(stored.columns, stored.types)))
