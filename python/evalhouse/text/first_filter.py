"""The first filter's dbt Python models, as functions of a DuckDB session: int_text_checks and int_phrase_checks.

Set-based work is SQL run by DuckDB (both cores); per-text work runs once per distinct text over Arrow batches
(``evalhouse.text.batch``). Nothing is pulled into pandas. The one-text reference functions are in
``evalhouse.text.checks``; every result here equals them (tests/test_first_filter_frames.py).
"""
from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import os
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc

from evalhouse.text import batch as tb
from evalhouse.text import checks as tx

__all__ = [
    "CHECKS_VERSION",
    "PHRASE_CHECK_COLUMNS",
    "phrase_code_version",
    "TEXT_CHECK_COLUMNS",
    "phrase_checks",
    "text_checks",
    "text_profiles",
    "text_workers",
]

# Part of every stored content hash: a new version rechecks every stored text once.
CHECKS_VERSION = "text-checks-2"
# Distinct texts per batch handed to one process: small enough that two workers stay evenly busy (the texts
# pysbd has to read cost about 100x the others and cluster), large enough that Arrow kernels dominate.
BATCH_ROWS = 25_000

TEXT_CHECK_COLUMNS = [
    "suite", "response_id", "content_hash", "detected_language", "detected_language_reason", "sentence_count",
    "response_chars", "response_text_normalized",
]
PHRASE_CHECK_COLUMNS = [
    "suite", "response_id", "item_id", "gold_kind", "phrase", "found_plain", "found_normalized",
    "negated_occurrences", "violation_negation_aware", "content_hash", "phrase_set_hash",
]

_PROFILE_SCHEMA = pa.schema([
    ("response_text", pa.large_string()), ("detected_language", pa.string()), ("sentence_count", pa.int32()),
    ("response_text_normalized", pa.large_string()),
])


def text_profiles(texts: pa.Array) -> pa.Table:
    """Per distinct non-NULL text: detected_language (CLD2, 'und' when unsure or under 8 letters), sentence_count
    (``evalhouse.text.checks.sentence_count`` with that language) and the normalised text
    (``evalhouse.text.checks.normalize``).
    """
    texts = pc.cast(texts, pa.large_string())
    languages, _ = tb.language_array(texts)
    return pa.table([texts, languages, tb.sentence_count_array(texts, languages), tb.normalize_array(texts)],
                    schema=_PROFILE_SCHEMA)


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def text_workers() -> int:
    """Processes that check texts: ``EVALHOUSE_TEXT_WORKERS`` when set (ASCII digits; 0 or 1 = in this process),
    else the CPUs this process may run on; never more than those CPUs (more processes than cores only add forks).
    Raises ValueError naming the variable when it is not a whole number >= 0 written in ASCII digits."""
    raw = os.environ.get("EVALHOUSE_TEXT_WORKERS")
    if raw is None or raw.strip() == "":
        return _cpus()
    value = raw.strip()
    if not (value.isascii() and value.isdigit()):
        raise ValueError(f"EVALHOUSE_TEXT_WORKERS={raw!r}: expected a whole number >= 0 in digits "
                         "(0 or 1: no worker processes)")
    return min(int(value), _cpus())


def _profile_batches(batches: Iterator[pa.Array]) -> list[pa.Table]:
    """``text_profiles`` of every batch, in order. One batch (the bundled data, a small import) is checked in this
    process; from two batches on, and with ``text_workers()`` >= 2, the batches go to that many forked worker
    processes, at most one per batch (the per-text work is Python and CLD2, which hold the GIL: threads would not
    help). Fork, not spawn: a spawned worker would re-import dbt (about 2.5 s each); a forked one only runs
    ``text_profiles`` and never touches the DuckDB session it inherited. Where fork does not exist, everything
    runs in this process."""
    first = next(batches, None)
    second = next(batches, None)
    head = [b for b in (first, second) if b is not None]
    workers = text_workers()
    if second is None or workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return [text_profiles(b) for b in itertools.chain(head, batches)]
    todo = list(itertools.chain(head, batches))
    with ProcessPoolExecutor(min(workers, len(todo)), mp_context=multiprocessing.get_context("fork")) as pool:
        futures = [pool.submit(text_profiles, b) for b in todo]
        return [f.result() for f in futures]


def _hashed(responses_sql: str) -> str:
    return (
        "select r.suite, r.response_id, r.response_text, "
        f"md5('{CHECKS_VERSION}' || chr(29) || coalesce(r.response_text, chr(30))) as content_hash "
        f"from ({responses_sql}) as r"
    )


def text_checks(session, responses_sql: str, this: str | None = None):
    """int_text_checks: one row per response of ``responses_sql`` (TEXT_CHECK_COLUMNS), as a DuckDB relation.

    With ``this`` (the stored table of an incremental run), the stored rows of responses no longer in
    ``responses_sql`` are deleted from it, and only responses whose content hash (md5 of the checks version and the
    reply text) is not stored are checked (the caller replaces their rows: unique key response_id).
    NULL text: detected_language NULL with detected_language_reason 'no reply text', sentence_count, response_chars
    and the normalised text NULL.
    Texts go through Python in batches of BATCH_ROWS distinct texts, on ``text_workers()`` processes when there is
    more than one batch (the results do not depend on how the texts are batched or on the number of processes).
    """
    todo = _hashed(responses_sql)
    if this is not None:
        session.execute(f"delete from {this} as stored where not exists (select 1 from ({responses_sql}) as r "
                        "where r.suite = stored.suite and r.response_id = stored.response_id)")
        todo = (f"select h.* from ({todo}) as h left join {this} as t "
                "on t.response_id = h.response_id and t.content_hash = h.content_hash where t.response_id is null")
    # Streamed in batches (in one process, DuckDB yields the next batch while Python works on one; with workers, all
    # batches are queued at once); read to the end before the next query.
    reader = session.execute(
        f"select distinct response_text from ({todo}) where response_text is not null"
    ).to_arrow_reader(BATCH_ROWS)
    parts = _profile_batches(batch.column(0) for batch in reader)
    profiles = pa.concat_tables(parts) if parts else _PROFILE_SCHEMA.empty_table()
    session.register("__evalhouse_text_profiles", profiles)
    return session.sql(f"""
        select
            t.suite,
            t.response_id,
            t.content_hash,
            p.detected_language,
            case when t.response_text is null then '{tb.NO_TEXT_REASON}' end as detected_language_reason,
            p.sentence_count,
            cast(length(t.response_text) as integer) as response_chars,
            cast(p.response_text_normalized as varchar) as response_text_normalized
        from ({todo}) as t
        left join __evalhouse_text_profiles as p on p.response_text = t.response_text
    """)


# Whole-word search with constant patterns: every maximal run of letters and digits is wrapped in a mark (U+E001)
# on each side, which puts a mark at every boundary between a letter or digit and anything else, and at the text's
# ends next to a letter or digit. A phrase that starts and ends with a letter or digit occurs as whole words exactly
# when its marked form is a substring of the marked text. Other phrases (rare: "-30 %") are matched with a pattern
# per phrase. (One regexp_replace: 2.3x faster than marking each kind of boundary in its own pass, same strings.)
# Only texts whose first occurrence of a phrase is not whole words are marked (_first_occurrence_whole).
_ALNUM = r"[\pL\pN]"
_NOT_ALNUM = r"[^\pL\pN]"


def _marked(expr: str) -> str:
    return f"regexp_replace({expr}, '{_ALNUM}+', chr(57345) || '\\0' || chr(57345), 'g')"


def _first_occurrence_whole(text: str, phrase: str) -> str:
    """SQL: the first occurrence of ``phrase`` in ``text`` (it has one) is neither preceded nor followed by a letter
    or digit. Most found phrases are, and are decided by it; the others need the marked text (a later, or an
    overlapping, occurrence may be whole words). Marking every text took 4 s of the search's 6 s at 1M replies."""
    at = f"strpos({text}, {phrase})"
    return (f"not regexp_matches(substring({text}, {at} - 1, 1), '{_ALNUM}') "
            f"and not regexp_matches(substring({text}, {at} + length({phrase}), 1), '{_ALNUM}')")


_NEGATION_RE2 = ("(^|[^\\pL\\pN])(not|no|never|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|unable|nor|"
                 "ne|n'|pas|jamais|aucun|aucune|impossible|interdit)($|[^\\pL\\pN])")


def phrase_code_version() -> str:
    """sha256 of the code the phrase search runs (this module, ``evalhouse.text.checks`` and
    ``evalhouse.text.batch``), part of every phrase_set_hash: any change to it rechecks every stored row once."""
    digest = hashlib.sha256()
    for module in (__file__, tx.__file__, tb.__file__):
        digest.update(Path(module).name.encode() + b"\0" + Path(module).read_bytes() + b"\0")
    return digest.hexdigest()


def phrase_checks(session, responses_sql: str, gold_sql: str, checks_sql: str, this: str | None = None):
    """int_phrase_checks: one row per response with text x required/forbidden phrase of its item
    (PHRASE_CHECK_COLUMNS), as a DuckDB relation.

    found_plain: ``lower(phrase)`` is a substring of ``lower(text)`` (the plain word search; DuckDB's lower).
    found_normalized: the normalised phrase occurs as whole words in the normalised text (int_text_checks).
    Forbidden phrases: a found phrase in a text without any negation cue or encouragement idiom has no negated
    occurrence (violation = found); the others go through ``evalhouse.text.checks.check_forbidden`` once per distinct
    (text, phrase). Required phrases: negated_occurrences and violation_negation_aware NULL.
    An empty normalised phrase raises ValueError naming the suite and item.

    A response's rows are determined by its key: content_hash (int_text_checks' md5 of the checks version and the
    reply text, which also fixes the normalised text) and phrase_set_hash (md5 of ``phrase_code_version()``, the
    suite, the item and the sorted list of its (gold_kind, gold_value) phrases, each as JSON). With ``this`` (the
    stored table of an incremental run), the stored rows of responses that have no key any more (removed, no text,
    no phrase) are deleted from it, and only the responses whose key is not stored are searched: the caller replaces
    their stored rows (unique key response_id). The phrases are normalised and checked for emptiness in every run,
    searched or not.
    """
    phrases = session.sql(
        f"select distinct gold_value as phrase from ({gold_sql}) "
        "where gold_kind in ('required_phrase', 'forbidden_phrase')").to_arrow_table().column(0)
    norm = tb.normalize_array(phrases)
    session.register("__evalhouse_phrases", pa.table({"phrase": pc.cast(phrases, pa.large_string()),
                                                      "phrase_normalized": norm}))
    empty = session.sql(
        f"select g.suite, g.item_id, g.gold_value from ({gold_sql}) as g join __evalhouse_phrases as p "
        "on p.phrase = g.gold_value where p.phrase_normalized = '' "
        "and g.gold_kind in ('required_phrase', 'forbidden_phrase') limit 1").fetchall()
    if empty:
        raise ValueError(f"empty phrase after normalisation: suite {empty[0][0]}, item {empty[0][1]}, "
                         f"gold_value {empty[0][2]!r}")
    # One key per response that has rows: a text and at least one (non-NULL) phrase. The item's phrases are encoded
    # each as a JSON pair, sorted as text: to_json of an ordered list of pairs took 6-7 s at 1M items, this 1 s.
    keys = f"""
        with phrase_sets as (
            select suite, item_id,
                   md5('{phrase_code_version()}' || chr(29) || to_json([suite, item_id]) || chr(29)
                       || to_json(list_sort(list(to_json([gold_kind, gold_value]))))) as phrase_set_hash
            from ({gold_sql})
            where gold_kind in ('required_phrase', 'forbidden_phrase') and gold_value is not null
            group by suite, item_id
        )
        select r.suite, r.response_id, c.content_hash, s.phrase_set_hash
        from ({responses_sql}) as r
        inner join ({checks_sql}) as c on c.suite = r.suite and c.response_id = r.response_id
        inner join phrase_sets as s on s.suite = r.suite and s.item_id = r.item_id
        where r.response_text is not null
    """
    todo = f"({keys})"
    if this is not None:
        stored = [c[0] for c in session.sql(f"select * from {this} limit 0").description]
        if stored != PHRASE_CHECK_COLUMNS:
            raise ValueError(f"{this} was made by an older evalhouse (columns {stored}): rebuild it with "
                             "`dbt build --full-refresh -s int_phrase_checks` (evalhouse build does it itself)")
        # the responses whose current key differs from the stored one: new, changed, or gone (no current key)
        session.execute(f"""
            create or replace temp table __evalhouse_phrase_changes as
            with current_keys as ({keys}),
            stored_keys as (
                select distinct suite, response_id, content_hash, phrase_set_hash from {this}
            )
            select coalesce(k.suite, s.suite) as suite, coalesce(k.response_id, s.response_id) as response_id,
                   k.content_hash, k.phrase_set_hash
            from current_keys as k
            full outer join stored_keys as s on s.suite = k.suite and s.response_id = k.response_id
            where k.content_hash is distinct from s.content_hash or k.phrase_set_hash is distinct from s.phrase_set_hash
        """)
        session.execute(f"""
            delete from {this} as stored where exists (
                select 1 from __evalhouse_phrase_changes as gone
                where gone.content_hash is null and gone.suite = stored.suite and gone.response_id = stored.response_id)
        """)
        todo = "(select * from __evalhouse_phrase_changes where content_hash is not null)"
    session.execute(f"""
        create or replace temp table __evalhouse_phrase_pairs as
        with phrases as (
            select phrase, phrase_normalized,
                   regexp_matches(phrase_normalized, '^{_ALNUM}') and regexp_matches(phrase_normalized, '{_ALNUM}$')
                       as alnum_edges,
                   {_marked('phrase_normalized')} as phrase_marked,
                   '(^|{_NOT_ALNUM})' || regexp_escape(phrase_normalized) || '($|{_NOT_ALNUM})' as phrase_pattern
            from __evalhouse_phrases
        ),
        texts as (
            select r.suite, r.response_id, r.item_id, lower(r.response_text) as text_lower,
                   c.response_text_normalized as text_normalized,
                   k.content_hash, k.phrase_set_hash
            from {todo} as k
            inner join ({responses_sql}) as r on r.suite = k.suite and r.response_id = k.response_id
            inner join ({checks_sql}) as c on c.suite = k.suite and c.response_id = k.response_id
        ),
        pairs as (
            select t.suite, t.response_id, t.item_id, g.gold_kind, g.gold_value as phrase, t.text_lower,
                   t.text_normalized, t.content_hash, t.phrase_set_hash, p.phrase_normalized,
                   p.alnum_edges, p.phrase_marked, p.phrase_pattern
            from texts as t
            inner join ({gold_sql}) as g
                on g.suite = t.suite and g.item_id = t.item_id
               and g.gold_kind in ('required_phrase', 'forbidden_phrase')
            inner join phrases as p on p.phrase = g.gold_value
        ),
        searched as (
            select *,
                   contains(text_lower, lower(phrase)) as found_plain,
                   case when not contains(text_normalized, phrase_normalized) then false
                        when not alnum_edges then regexp_matches(text_normalized, phrase_pattern)
                        when {_first_occurrence_whole('text_normalized', 'phrase_normalized')} then true
                        else contains({_marked('text_normalized')}, phrase_marked) end as found_normalized
            from pairs
        )
        select suite, response_id, item_id, gold_kind, phrase, found_plain, found_normalized,
               content_hash, phrase_set_hash,
               -- a CASE, so the cue patterns run only on found forbidden phrases (an AND runs both sides)
               case when gold_kind = 'forbidden_phrase' and found_normalized
                    then regexp_matches(text_normalized, '{_NEGATION_RE2.replace("'", "''")}')
                         or regexp_matches(text_normalized, '{tx._ENCOURAGEMENT.pattern.replace("'", "''")}')
                    else false end
                   as needs_negation_check
        from searched
    """)
    # The pairs carry no text (copying three texts per pair took most of the search's time at 1M); the few pairs a
    # negation cue leaves undecided get their reply text back from the responses.
    session.execute(f"""
        create or replace temp table __evalhouse_negation_pairs as
        select p.suite, p.response_id, p.phrase, r.response_text
        from __evalhouse_phrase_pairs as p
        inner join ({responses_sql}) as r on r.suite = p.suite and r.response_id = p.response_id
        where p.needs_negation_check
    """)
    negation = session.sql(
        "select distinct response_text, phrase from __evalhouse_negation_pairs"
    ).to_arrow_table()
    results = [tx.check_forbidden(t, p) for t, p in zip(negation.column(0).to_pylist(),
                                                          negation.column(1).to_pylist())]
    session.register("__evalhouse_negation", pa.table({
        "response_text": negation.column(0), "phrase": negation.column(1),
        "negated_occurrences": pa.array([r.negated_occurrences for r in results], pa.int64()),
        "violation": pa.array([r.violation for r in results], pa.bool_()),
    }))
    return session.sql("""
        select p.suite, p.response_id, p.item_id, p.gold_kind, p.phrase, p.found_plain, p.found_normalized,
               case when p.gold_kind = 'required_phrase' then null
                    when p.needs_negation_check then n.negated_occurrences
                    else cast(0 as bigint) end as negated_occurrences,
               case when p.gold_kind = 'required_phrase' then null
                    when p.needs_negation_check then n.violation
                    else p.found_normalized end as violation_negation_aware,
               p.content_hash,
               p.phrase_set_hash
        from __evalhouse_phrase_pairs as p
        left join (
            select k.suite, k.response_id, k.phrase, n.negated_occurrences, n.violation
            from __evalhouse_negation_pairs as k
            inner join __evalhouse_negation as n on n.response_text = k.response_text and n.phrase = k.phrase
        ) as n
            on p.needs_negation_check and n.suite = p.suite and n.response_id = p.response_id and n.phrase = p.phrase
    """)
