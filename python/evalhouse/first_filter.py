"""Frame-level first-filter checks used by the dbt Python models int_text_checks and int_phrase_checks.

Each distinct text is checked once (replies repeat across runs and raters), so the cost grows with the number of
distinct texts, not rows.
"""
from __future__ import annotations

import pandas as pd

from evalhouse import text as tx

TEXT_CHECK_COLUMNS = [
    "suite", "response_id", "json_strict", "json_fenced", "json_extractable", "json_check_reason",
    "detected_language", "sentence_count", "response_chars",
]


def text_checks(responses: pd.DataFrame) -> pd.DataFrame:
    """Per response: JSON flags of ``raw_output``, detected language and sentence count of ``response_text``.

    Input columns: suite, response_id, response_text, raw_output. Output: TEXT_CHECK_COLUMNS, one row per input row.
    NULL meaning: JSON flags NULL when the raw output was not recorded (reason in json_check_reason);
    language 'und' and sentence_count NULL when the reply text is missing.
    """
    out = responses[["suite", "response_id"]].copy()
    raw = responses["raw_output"].astype(object).where(responses["raw_output"].notna(), None)
    reply = responses["response_text"].astype(object).where(responses["response_text"].notna(), None)

    json_cache: dict = {}
    flags = [json_cache.setdefault(r, tx.json_flags(r)) if r is not None else tx.json_flags(None) for r in raw]
    out["json_strict"] = pd.array([f.strict for f in flags], dtype="boolean")
    out["json_fenced"] = pd.array([f.fenced for f in flags], dtype="boolean")
    out["json_extractable"] = pd.array([f.extractable for f in flags], dtype="boolean")
    out["json_check_reason"] = [f.reason for f in flags]

    lang_cache: dict = {}
    sent_cache: dict = {}
    langs, sents = [], []
    for t in reply:
        if t is None:
            langs.append(tx.UNDETERMINED)
            sents.append(None)
            continue
        if t not in lang_cache:
            lang_cache[t] = tx.detect_language(t)
            sent_cache[t] = tx.sentence_count(t, lang_cache[t])
        langs.append(lang_cache[t])
        sents.append(sent_cache[t])
    out["detected_language"] = langs
    out["sentence_count"] = pd.array(sents, dtype="Int64")
    out["response_chars"] = pd.array([len(t) if t is not None else None for t in reply], dtype="Int64")
    for col in ("suite", "response_id", "json_check_reason", "detected_language"):
        out[col] = out[col].astype("string")  # typed even when empty (an incremental run may check nothing)
    return out[TEXT_CHECK_COLUMNS]


PHRASE_CHECK_COLUMNS = [
    "suite", "response_id", "item_id", "gold_kind", "phrase", "found_plain", "found_normalized",
    "negated_occurrences", "violation_negation_aware",
]


def phrase_checks(responses: pd.DataFrame, gold: pd.DataFrame) -> pd.DataFrame:
    """Per response x required/forbidden phrase of its item: plain and normalised presence; for forbidden phrases,
    the negation-aware verdict (see ``evalhouse.text.check_forbidden``).

    Responses without text get no rows (nothing to search). ``violation_negation_aware`` is NULL for required
    phrases; ``negated_occurrences`` likewise.
    """
    phrases = gold[gold["gold_kind"].isin(["required_phrase", "forbidden_phrase"])][
        ["suite", "item_id", "gold_kind", "gold_value"]
    ].rename(columns={"gold_value": "phrase"})
    with_text = responses[responses["response_text"].notna()][["suite", "response_id", "item_id", "response_text"]]
    pairs = with_text.merge(phrases, on=["suite", "item_id"], how="inner")
    cache: dict = {}
    rows = []
    for r in pairs.itertuples(index=False):
        key = (r.response_text, r.gold_kind, r.phrase)
        if key not in cache:
            if r.gold_kind == "forbidden_phrase":
                c = tx.check_forbidden(r.response_text, r.phrase)
                cache[key] = (c.found_plain, c.occurrences > 0, c.negated_occurrences, c.violation)
            else:
                cache[key] = (
                    tx.contains_plain(r.response_text, r.phrase),
                    tx.contains_normalized(r.response_text, r.phrase),
                    None,
                    None,
                )
        rows.append((r.suite, r.response_id, r.item_id, r.gold_kind, r.phrase, *cache[key]))
    out = pd.DataFrame(rows, columns=PHRASE_CHECK_COLUMNS)
    for col in ("found_plain", "found_normalized", "violation_negation_aware"):
        out[col] = pd.array(out[col].tolist(), dtype="boolean")
    out["negated_occurrences"] = pd.array(out["negated_occurrences"].tolist(), dtype="Int64")
    for col in ("suite", "response_id", "item_id", "gold_kind", "phrase"):
        out[col] = out[col].astype("string")
    return out
