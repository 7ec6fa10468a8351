"""What the Streamlit app reads: short read-only queries on the published warehouse, one connection per call.

Safe reading: every function opens ``evalhouse.warehouse.published.connect_readonly()`` (the *published* copy, never the
file `dbt build` writes), runs its queries and closes the connection before returning, so a build is never blocked and
the app never sees a half-built warehouse (`publish` swaps the whole file with ``os.replace``). A connection opened just
before a swap keeps reading the old, complete file. ``signature()`` changes with every publish; the app uses it as a
cache key so a new build shows up on the next rerun.

Optional marts (other suites' reliability, composites...) are found through ``information_schema``: a page shows a
section only when its mart exists.
"""
from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from evalhouse import paths
from evalhouse.warehouse.published import WarehouseMissing, connect_readonly

__all__ = ["WarehouseMissing", "signature", "read", "tables", "has", "columns"]


def db_path() -> Path:
    return paths.published_db()


def signature(db: Path | None = None) -> tuple | None:
    """(path, inode, mtime_ns, size) of the published file, or None when it does not exist."""
    p = Path(db) if db else db_path()
    try:
        st = os.stat(p)
    except FileNotFoundError:
        return None
    return (str(p), st.st_ino, st.st_mtime_ns, st.st_size)


def read(sql: str, params: list | None = None, db: Path | None = None) -> pd.DataFrame:
    """Run one query on a fresh read-only connection and return a DataFrame (the connection is closed)."""
    with connect_readonly(db) as con:
        return con.execute(sql, params or []).df()


def read_many(queries: dict[str, tuple[str, list]], db: Path | None = None) -> dict[str, pd.DataFrame]:
    """Several queries on one short connection (one consistent snapshot of the published file)."""
    out = {}
    with connect_readonly(db) as con:
        for name, (sql, params) in queries.items():
            out[name] = con.execute(sql, params or []).df()
    return out


def tables(db: Path | None = None) -> dict[str, list[str]]:
    """Every table/view of the main schema -> its columns in order."""
    df = read("""
        select table_name, column_name
        from information_schema.columns
        where table_schema = 'main'
        order by table_name, ordinal_position
    """, db=db)
    out: dict[str, list[str]] = {}
    for t, c in df.itertuples(index=False):
        out.setdefault(t, []).append(c)
    return out


def has(table: str, db: Path | None = None) -> bool:
    return table in tables(db)


def columns(table: str, db: Path | None = None) -> list[str]:
    return tables(db).get(table, [])


# ---------------------------------------------------------------------------------------------------------------------
# Leaderboard
# ---------------------------------------------------------------------------------------------------------------------
def leaderboard_filters(db: Path | None = None) -> pd.DataFrame:
    """The slices a leaderboard can show: suite x rubric version x rater kind x rater, with run and reply counts."""
    return read("""
        select suite, rubric_id, rubric_version, rater_kind, rater_id, count(*) as n_runs,
               cast(sum(n_replies_rated) as bigint) as n_replies
        from fct_model_run_scores
        group by all
        order by suite, rubric_version desc, rater_kind, rater_id
    """, db=db)


def leaderboard_data(suite: str, rubric_version: int, rater_kind: str | None = None, rater_id: str | None = None,
                     db: Path | None = None) -> dict[str, pd.DataFrame]:
    """fct_model_run_scores, fct_model_run_criterion_scores and (when built) fct_model_run_score_intervals rows of one
    suite x rubric version, optionally one rater kind / rater; one connection."""
    where = "suite = ? and rubric_version = ?"
    params: list = [suite, int(rubric_version)]
    if rater_kind:
        where += " and rater_kind = ?"
        params.append(rater_kind)
    if rater_id:
        where += " and rater_id = ?"
        params.append(rater_id)
    queries = {
        "runs": (f"select * from fct_model_run_scores where {where}", params),
        "criteria": (f"select * from fct_model_run_criterion_scores where {where}", params),
    }
    with connect_readonly(db) as con:
        present = {r[0] for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'main'").fetchall()}
        if "fct_model_run_score_intervals" in present:
            queries["intervals"] = (f"select * from fct_model_run_score_intervals where {where}", params)
        return {name: con.execute(sql, p).df() for name, (sql, p) in queries.items()}


def interval_marts(db: Path | None = None, exclude: tuple[str, ...] = ("fct_model_run_score_intervals",
                                                                     "fct_grade__composite_intervals")) -> list[dict]:
    """Every mart with an interval column set and an id column (other suites' composites with 95% CIs), except
    those with a page of their own (the GRADE composite leaderboard: GRADE page, ranked in its mart).

    Returns [{table, id, estimate, low, high, group_cols}, ...]; group_cols are the mart's other text/int key-like
    columns that split rankings (suite, pack, track, rubric_version, rater_id, task...) when present.
    """
    from evalhouse.app.leaderboard import find_id_column, find_interval_columns

    out = []
    for table, cols in sorted(tables(db).items()):
        if table in exclude or not (table.startswith("fct_") or table.startswith("mart_") or table.startswith("rpt_")):
            continue
        id_col = find_id_column(cols)
        if id_col is None:
            continue
        for iv in find_interval_columns(cols):
            groups = [c for c in ("suite", "benchmark", "pack", "track", "level", "rubric_version", "rater_id",
                                  "judge_id", "criterion", "dimension", "metric", "task_id")
                      if c in cols and c != id_col]
            out.append({"table": table, "id": id_col, **iv, "group_cols": groups})
    return out


def grade_leaderboard(db: Path | None = None) -> dict[str, pd.DataFrame]:
    """The GRADE composite leaderboard (fct_grade__composite_intervals, ranked in the mart) and the dimension scores
    behind it (fct_grade__overall_scores), from one snapshot; an empty dict when GRADE is not built."""
    with connect_readonly(db) as con:
        present = {r[0] for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'main'").fetchall()}
        if not {"fct_grade__composite_intervals", "fct_grade__overall_scores"} <= present:
            return {}
        return {
            "board": con.execute("select * from fct_grade__composite_intervals "
                                 "order by composite desc nulls last, system_id").df(),
            "dimensions": con.execute("select * from fct_grade__overall_scores order by composite desc nulls last, "
                                      "system_id").df(),
            "weights": con.execute("select * from int_grade__project_weights").df()
            if "int_grade__project_weights" in present else pd.DataFrame(),
        }


# ---------------------------------------------------------------------------------------------------------------------
# Where points are lost, reply drill-down
# ---------------------------------------------------------------------------------------------------------------------
def heatmap_data(suite: str, rubric_version: int, rater_id: str, db: Path | None = None) -> pd.DataFrame:
    return read("""
        select system_id, rubric_id, criterion, criterion_order, direction, n_scored, n_at_minimum, n_at_maximum,
               n_at_worst, n_at_best, cast(mean_score as double) as mean_score,
               cast(mean_points_lost as double) as mean_points_lost, n_stale
        from fct_model_run_criterion_scores
        where suite = ? and rubric_version = ? and rater_id = ?
        order by criterion_order, system_id
    """, [suite, int(rubric_version), rater_id], db=db)


def replies_for_cell(suite: str, rubric_version: int, rater_id: str, system_id: str, criterion: str,
                     rubric_id: str | None = None, db: Path | None = None) -> pd.DataFrame:
    """The replies behind one heat-map cell: the run's scores on that criterion (of that rubric, when given: a run
    of a suite with several rubrics has one cell per rubric), worst first: lowest points (the direction-adjusted
    score), so a lower-is-better criterion lists its highest scores (most errors) first."""
    return read("""
        select response_id, item_id, score, min_score, max_score, direction, reason, is_stale, carried_forward,
               rated_under_version
        from fct_criterion_scores
        where suite = ? and rubric_version = ? and rater_id = ? and system_id = ? and criterion = ?
          and (cast(? as varchar) is null or rubric_id = ?)
        order by points nulls first, item_id, response_id
    """, [suite, int(rubric_version), rater_id, system_id, criterion, rubric_id, rubric_id], db=db)


def response_choices(db: Path | None = None) -> pd.DataFrame:
    return read("""
        select suite, item_id, system_id, repetition, response_id
        from dim_responses order by suite, item_id, system_id, repetition
    """, db=db)


def reply_detail(response_id: str, db: Path | None = None) -> dict[str, pd.DataFrame]:
    """Everything the drill-down shows for one reply, from one snapshot."""
    p = [response_id]
    with connect_readonly(db) as con:
        present = {r[0] for r in con.execute(
            "select table_name from information_schema.tables where table_schema = 'main'").fetchall()}
        q = {
            "response": ("select * from dim_responses where response_id = ?", p),
            "item": ("""select i.* from dim_items as i join dim_responses as r
                        on r.suite = i.suite and r.item_id = i.item_id where r.response_id = ?""", p),
            "first_filter": ("select * from fct_first_filter where response_id = ?", p),
            "ratings": ("""select rater_id, rater_kind, rubric_id, rubric_version, criterion, score, score_text,
                                  score_problem, reason, is_blind, rated_at, source_file, source_row, rating_id
                           from fct_ratings where response_id = ?
                           order by rubric_version, rater_id, criterion, rated_at""", p),
            "effective": ("""select rater_id, rater_kind, rubric_version, criterion, criterion_order, score,
                                    score_status, reason, rated_under_version, carried_forward, is_stale
                             from fct_criterion_scores where response_id = ?
                             order by rubric_version, rater_id, criterion_order""", p),
            "reply_scores": ("""select rater_id, rater_kind, rubric_version, total, max_total, ready, score_status,
                                       n_stale_scores
                                from fct_reply_scores where response_id = ? order by rubric_version, rater_id""", p),
            "stale": ("""select rater_id, criterion, rated_under_version, old_score, old_reason, changed_in_version,
                                change_note, current_version, current_score, rescore_status
                         from fct_stale_ratings where response_id = ?""", p),
            "anchors": ("""select l.rubric_id, l.rubric_version, l.criterion, l.criterion_order, l.level, l.anchor,
                                  l.anchors_changed_in_version, l.is_current_version
                           from dim_rubric_levels as l join dim_responses as r on r.suite = l.suite
                           where r.response_id = ?
                           order by l.rubric_version, l.criterion_order, l.level desc""", p),
        }
        if "fct_stale_ratings" not in present:
            q.pop("stale")
        return {k: con.execute(sql, par).df() for k, (sql, par) in q.items()}


# ---------------------------------------------------------------------------------------------------------------------
# Agreement
# ---------------------------------------------------------------------------------------------------------------------
AGREEMENT_HINTS = ("reliab", "agreement", "judge", "kappa", "alpha", "meta_eval", "correlation")


def agreement_marts(db: Path | None = None) -> list[str]:
    """Optional marts about rater agreement / reliability / judges, besides the two this page always reads."""
    core = {"fct_two_reader_agreement", "fct_word_search_vs_human"}
    return [t for t in sorted(tables(db)) if t.startswith("fct_") and t not in core
            and any(h in t for h in AGREEMENT_HINTS)]
