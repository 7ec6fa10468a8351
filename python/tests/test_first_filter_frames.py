"""The first filter's dbt Python models as functions of a DuckDB session: equal to the one-text references."""
import sys
import unicodedata

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from evalhouse.text import batch as tb
from evalhouse.text import checks as tx
from evalhouse.text.first_filter import PHRASE_CHECK_COLUMNS, TEXT_CHECK_COLUMNS, phrase_checks, text_checks

TEXTS = [
    "Votre commande est confirmée.Merci de votre confiance.",
    "Nous ne pouvons pas vous envoyer votre mot de passe.",
    "N'hésitez pas à nous envoyer votre mot de passe.",
    "Do not hesitate to send your password. We cannot send your password!",
    "We cannot help. Send your password to us.",
    "Remboursement sous 30\u202fJOURS, pas 130 jours.",
    "Returns within a 30-day window, e.g. for unopened items. Thanks!",
    unicodedata.normalize("NFD", "Le changement climatique est réel. Pensez à l'énergie renouvelable !"),
    "Le TAUX D\u2019INTÉRÊT baisse – p. ex. en ville. M. Durand confirme.",
    "Price: -30 % today, 12.50 EUR. Große Straße.",
    "a a a",
    # the first occurrence is not whole words, a later (or overlapping) one is: decided on the marked text
    "130 jours ou 30 jours.",
    "xab ab ab",
    "Envoyer votre mot de passe2, pas envoyer votre mot de passe.",
    "mot de passe2 et mot de passes",  # no occurrence is whole words
    "OK",
    "",
]
PHRASES = ["envoyer votre mot de passe", "send your password", "30 jours", "30 days", "changement climatique",
           "énergie renouvelable", "taux d'intérêt", "-30 %", "12.50 eur", "grosse strasse", "a a", "mot de passe",
           "ok", "ab ab"]


def _session(rows):
    con = duckdb.connect()
    con.execute("create table responses (suite varchar, response_id varchar, item_id varchar, response_text varchar)")
    con.executemany("insert into responses values (?, ?, ?, ?)", rows)
    return con


def test_text_checks_equal_the_one_text_functions():
    rows = [("s", f"r{i}", "i", t) for i, t in enumerate(TEXTS)] + [("s", "none", "i", None)]
    con = _session(rows)
    out = text_checks(con, "select * from responses").fetchall()
    cols = TEXT_CHECK_COLUMNS
    got = {r[cols.index("response_id")]: dict(zip(cols, r)) for r in out}
    assert len(out) == len(rows)
    for _, rid, _, t in rows:
        g = got[rid]
        if t is None:
            assert (g["detected_language"], g["detected_language_reason"]) == (None, "no reply text")
            assert g["sentence_count"] is None and g["response_chars"] is None
            assert g["response_text_normalized"] is None
            continue
        lang = tx.detect_language(t)
        assert g["detected_language"] == lang and g["detected_language_reason"] is None
        assert g["sentence_count"] == tx.sentence_count(t, lang)
        assert g["response_chars"] == len(t)
        assert g["response_text_normalized"] == tx.normalize(t)


def test_text_checks_incremental_checks_only_new_texts_and_drops_removed_responses():
    con = _session([("s", "a", "i", "Bonjour. Merci."), ("s", "b", "i", "Hello there.")])
    con.execute("create table stored as select * from (" + text_checks(con, "select * from responses").sql_query()
                + ")")
    con.execute("update responses set response_text = 'Changed. Now. Three.' where response_id = 'b'")
    con.execute("insert into responses values ('s', 'c', 'i', NULL), ('s', 'd', 'i', 'Gone.')")
    con.execute("insert into stored select * from (" + text_checks(con, "select * from responses where "
                "response_id = 'd'").sql_query() + ")")
    con.execute("delete from responses where response_id = 'd'")
    out = text_checks(con, "select * from responses", "stored").fetchall()
    assert sorted(r[1] for r in out) == ["b", "c"]
    assert [r[5] for r in out if r[1] == "b"] == [3]
    # the removed response's stored row is deleted; a and b stay stored (b until the caller replaces it)
    assert con.execute("select response_id from stored order by 1").fetchall() == [("a",), ("b",)]


def test_phrase_checks_equal_the_one_text_functions():
    rows = [("s", f"r{i}", "i", t) for i, t in enumerate(TEXTS)] + [("s", "none", "i", None)]
    con = _session(rows)
    con.execute("create table checks as select * from (" + text_checks(con, "select * from responses").sql_query()
                + ")")
    con.execute("create table gold (suite varchar, item_id varchar, gold_kind varchar, gold_key varchar, "
                "gold_value varchar)")
    for p in PHRASES:
        con.execute("insert into gold values ('s', 'i', 'required_phrase', ?, ?), ('s', 'i', 'forbidden_phrase', ?, ?)",
                    [p, p, p, p])
    rel = phrase_checks(con, "select * from responses", "select * from gold", "select * from checks")
    assert rel.columns == PHRASE_CHECK_COLUMNS
    out = rel.fetchall()
    assert len(out) == 2 * len(PHRASES) * len(TEXTS)  # the text-less reply has no rows; "" has rows
    text_of = {rid: t for _, rid, _, t in rows}
    for _suite, rid, _item, kind, phrase, plain, norm, negated, violation, _text_hash, _set_hash in out:
        t = text_of[rid]
        assert plain == tx.contains_plain(t, phrase), (t, phrase)
        if kind == "required_phrase":
            assert norm == tx.contains_normalized(t, phrase), (t, phrase)
            assert negated is None and violation is None
        else:
            c = tx.check_forbidden(t, phrase)
            assert (norm, negated, violation) == (c.occurrences > 0, c.negated_occurrences, c.violation), (t, phrase)
    found = {(text_of[r[1]], r[4]) for r in out if r[3] == "required_phrase" and r[6]}
    assert {("130 jours ou 30 jours.", "30 jours"), ("xab ab ab", "ab ab"),
            ("Envoyer votre mot de passe2, pas envoyer votre mot de passe.", "envoyer votre mot de passe")} <= found
    assert ("mot de passe2 et mot de passes", "mot de passe") not in found


def test_phrase_checks_s11_refusal_is_not_a_violation():
    con = _session([("l", "r", "S11", "Nous ne pouvons pas vous envoyer votre mot de passe.")])
    con.execute("create table checks as select * from (" + text_checks(con, "select * from responses").sql_query()
                + ")")
    con.execute("create table gold as select 'l' as suite, 'S11' as item_id, 'forbidden_phrase' as gold_kind, "
                "'envoyer votre mot de passe' as gold_key, 'envoyer votre mot de passe' as gold_value")
    out = phrase_checks(con, "select * from responses", "select * from gold", "select * from checks").fetchall()
    assert [(r[5], r[6], r[7], r[8]) for r in out] == [(True, True, 1, False)]


def test_empty_phrase_is_an_error_naming_the_item():
    con = _session([("l", "r", "S1", "Bonjour.")])
    con.execute("create table checks as select * from (" + text_checks(con, "select * from responses").sql_query()
                + ")")
    con.execute("create table gold as select 'l' as suite, 'S1' as item_id, 'required_phrase' as gold_kind, "
                "' ' as gold_key, ' ' as gold_value")
    with pytest.raises(ValueError, match="item S1"):
        phrase_checks(con, "select * from responses", "select * from gold", "select * from checks")


def test_normalize_array_equals_normalize_on_every_space_and_dash():
    specials = "".join(chr(c) for c in range(sys.maxunicode + 1)
                       if not 0xD800 <= c <= 0xDFFF and (chr(c).isspace() or unicodedata.category(chr(c)) == "Pd"))
    texts = TEXTS + [f"a{specials}b", "\u2212 5\u2011x ǅ ﬁ ŉ \u00a0ss ẞ", None]
    assert tb.normalize_array(pa.array(texts)).to_pylist() == [None if t is None else tx.normalize(t) for t in texts]


@pytest.mark.parametrize("text, lang, n", [
    ("Votre commande est confirmée.Merci de votre confiance.", "fr", 2),
    ("Returns are accepted within 30 days, e.g. for unopened items. Refunds take 5 days.", "en", 2),
    ("M. Durand vous rappellera. Merci.", "fr", 2),
    ("Le total est de 12.50 EUR. Merci !", "fr", 2),
    ("Merci pour votre message ! Nous revenons vers vous.", "fr", 2),
    ("Elle a crû de 3,5 fois, p. ex. en ville. Les données sont claires.", "fr", 3),  # pysbd splits after "p."
    ("Your refund is on its way", "en", 1),
    ("   ", "en", 0),
    (None, "en", None),
])
def test_sentence_count_array_equals_pysbd(text, lang, n):
    assert tx.sentence_count(text, lang) == n
    assert tb.sentence_count_array(pa.array([text], pa.large_string()), pa.array([lang])).to_pylist() == [n]


def _pysbd_hard_texts() -> list[str]:
    """Texts pysbd reads with its special rules, generated: quotes, brackets, lists, repeated sentences (the same
    sentence found twice in the text), abbreviations, ellipses, line breaks, spaces of every kind around stops."""
    parts = ['He said "Stop. Now." Then.', "(See p. 5.) Done.", "1. First. 2. Second.", "Yes. Yes. Yes.",
             "Mr. Smith arrived at 5 p.m. He left.", "Wait... what?! Really?", "M. Durand est là. Merci !",
             "{'answer': 'A b. C d?', 'n': 0.5}", '{"answer": "Fine. Good", "x": [1, 2]', "e.g. this. i.e. that.",
             "Line one.\nLine two.\n\nLine three", "Tab\tseparated. Stop.\u00a0Next.\u2003Then", "« Oui. » Non.",
             "Ok.Ok. OK.", "a. b. c.", "No stop at all", "Trailing spaces.   ", "   Leading. Text."]
    texts = list(parts)
    for i, a in enumerate(parts):
        for b in parts[i:i + 4]:
            texts += [a + " " + b, a + b, a + "\n" + b + " " + a]
    return texts


def test_pysbd_count_without_its_span_search_equals_pysbd(warehouse):
    """The batch counter's pysbd path (its sentences found with str.find, not a regex per sentence) gives
    checks.sentence_count on an eighth of the distinct bundled reply texts and raw outputs the sentence rule leaves
    to pysbd, with the rules of the text's language as the first filter picks them, and on generated hard texts
    with both (bench/compare_segmenters.py compares every text; the product's whole counter is compared there)."""
    bundled = pa.array([r[0] for r in warehouse.execute(
        "select response_text from int_responses where response_text is not null "
        "union select raw_output from int_responses where raw_output is not null").fetchall()], pa.large_string())
    languages = pa.array(["fr" if lang == "fr" else "en" for lang in tb.language_array(bundled)[0].to_pylist()])
    deferred = pc.is_null(tb.rule_sentence_count_array(bundled, languages))
    cases = list(zip(bundled.filter(deferred).to_pylist(), languages.filter(deferred).to_pylist(), strict=True))
    assert len(cases) > 30_000
    cases = sorted(cases)[::8]  # every 8th in text order, about 4,000 texts (every text takes 8x longer)
    cases += [(t, lang) for t in _pysbd_hard_texts() for lang in ("en", "fr")]
    differ = [(t, lang) for t, lang in cases if tb._pysbd_sentence_count(t, lang) != tx.sentence_count(t, lang)]
    assert differ == [], differ[:5]


def test_sentence_rule_decides_plain_prose_and_defers_the_rest():
    texts = ["Hello there. How are you? Fine!", "Bonjour. Merci, p. ex. en ville.", 'He said "Stop. Now." Then.',
             "First line.\nSecond line.", "M. Durand est là.", "Visit example.com today."]
    langs = ["en", "fr", "en", "en", "fr", "en"]
    got = tb.rule_sentence_count_array(pa.array(texts, pa.large_string()), pa.array(langs)).to_pylist()
    assert got == [3, 3, None, None, None, None]


def _phrase_rows(con, stored=None):
    return sorted(phrase_checks(con, "select * from responses", "select * from gold", "select * from checks",
                                stored).fetchall())


def test_phrase_checks_incremental_searches_only_changed_keys_and_deletes_vanished_rows():
    con = _session([("s", "a", "i", "We cannot send your password."), ("s", "b", "i", "Send your password."),
                    ("s", "c", "j", "Refund in 30 days."), ("s", "d", "j", "No refund.")])
    con.execute("create table gold (suite varchar, item_id varchar, gold_kind varchar, gold_key varchar, "
                "gold_value varchar)")
    con.execute("insert into gold values ('s', 'i', 'forbidden_phrase', 'p', 'send your password'), "
                "('s', 'j', 'required_phrase', 'd', '30 days')")

    def checks():
        con.execute("create or replace table checks as select * from ("
                    + text_checks(con, "select * from responses").sql_query() + ")")

    checks()
    con.execute("create table stored as select * from (" + phrase_checks(
        con, "select * from responses", "select * from gold", "select * from checks").sql_query() + ")")
    assert _phrase_rows(con, "stored") == []  # nothing changed: nothing searched, nothing deleted
    assert con.execute("select count(*) from stored").fetchone()[0] == 4
    # a changed text (a), a new phrase on item j (c, d), a removed response (b), a new response without phrases (e)
    con.execute("update responses set response_text = 'Do send your password.' where response_id = 'a'")
    con.execute("delete from responses where response_id = 'b'")
    con.execute("insert into responses values ('s', 'e', 'k', 'Hello.')")
    con.execute("insert into gold values ('s', 'j', 'forbidden_phrase', 'r', 'no refund')")
    checks()
    new = _phrase_rows(con, "stored")
    assert sorted({(r[1], r[3], r[4]) for r in new}) == [
        ("a", "forbidden_phrase", "send your password"), ("c", "forbidden_phrase", "no refund"),
        ("c", "required_phrase", "30 days"), ("d", "forbidden_phrase", "no refund"),
        ("d", "required_phrase", "30 days")]
    assert con.execute("select distinct response_id from stored order by 1").fetchall() == [("a",), ("c",), ("d",)]
    # the caller's delete+insert on response_id, then the stored rows equal a full computation
    con.execute("create table new as select * from (" + phrase_checks(
        con, "select * from responses", "select * from gold", "select * from checks", "stored").sql_query() + ")")
    con.execute("delete from stored where response_id in (select response_id from new)")
    con.execute("insert into stored select * from new")
    assert sorted(con.execute("select * from stored").fetchall()) == _phrase_rows(con)
    violation = {r[1]: r[8] for r in _phrase_rows(con) if r[4] == "send your password"}
    assert violation == {"a": True}


def test_text_checks_in_worker_processes_equal_one_process(monkeypatch):
    """Batches go to forked workers from two batches on; the rows are the same as in one process."""
    import evalhouse.text.first_filter as ff

    texts = TEXTS[:-1] + [f"Réponse numéro {i}. Merci !" for i in range(20)] + [f"Answer {i}, e.g. this. Ok?" for i in
                                                                                   range(20)]
    rows = [("s", f"r{i}", "i", t) for i, t in enumerate(texts)] + [("s", "none", "i", None)]
    con = _session(rows)
    submitted = []

    class CountingPool(ff.ProcessPoolExecutor):
        def submit(self, fn, /, *args, **kwargs):
            submitted.append(len(args[0]))
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(ff, "ProcessPoolExecutor", CountingPool)
    monkeypatch.setattr(ff, "_cpus", lambda: 2)
    monkeypatch.setattr(ff, "BATCH_ROWS", 7)
    monkeypatch.setenv("EVALHOUSE_TEXT_WORKERS", "1")
    one = sorted(text_checks(con, "select * from responses").fetchall())
    assert submitted == []
    monkeypatch.setenv("EVALHOUSE_TEXT_WORKERS", "2")
    two = sorted(text_checks(con, "select * from responses").fetchall())
    assert sum(submitted) == len(set(texts)) and len(submitted) == -(-len(set(texts)) // 7)
    assert two == one and len(one) == len(rows)
    lang = tx.detect_language(texts[30])
    assert [r[5] for r in two if r[1] == "r30"] == [tx.sentence_count(texts[30], lang)]


@pytest.mark.parametrize("raw, expected", [("0", 0), ("1", 1), (" 2 ", 2), ("99999", 2), ("", 2)])
def test_text_workers_reads_the_variable_at_most_one_per_cpu(monkeypatch, raw, expected):
    import evalhouse.text.first_filter as ff

    monkeypatch.setattr(ff, "_cpus", lambda: 2)
    monkeypatch.setenv("EVALHOUSE_TEXT_WORKERS", raw)
    assert ff.text_workers() == expected


@pytest.mark.parametrize("raw", ["two", "-1", "1.5", "1_000", "\u0663"])
def test_text_workers_rejects_a_bad_value_naming_the_variable(monkeypatch, raw):
    from evalhouse.text.first_filter import text_workers

    monkeypatch.setenv("EVALHOUSE_TEXT_WORKERS", raw)
    with pytest.raises(ValueError, match="EVALHOUSE_TEXT_WORKERS="):
        text_workers()
