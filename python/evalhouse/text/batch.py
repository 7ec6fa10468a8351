"""The first filter's per-text work over Arrow arrays: normalisation, sentence counts and language.

Each function takes a ``pyarrow`` array of texts (one element per distinct text; NULL allowed) and returns an array
of the same length whose elements equal the one-text functions of ``evalhouse.text.checks`` (the reference, tested on
every bundled reply and on generated ones). The work is done by Arrow compute kernels (RE2 regular expressions,
utf8proc normalisation) over the whole array; Python runs per element only where no vectorised kernel exists:
``str.casefold``, the CLD2 call, and pysbd for the few texts the sentence rule leaves to it.
"""
from __future__ import annotations

from functools import lru_cache

import pyarrow as pa
import pyarrow.compute as pc

from evalhouse.text import checks as tx

__all__ = [
    "NO_TEXT_REASON",
    "language_array",
    "normalize_array",
    "rule_sentence_count_array",
    "sentence_count_array",
]

NO_TEXT_REASON = "no reply text"


def _char_class(chars: list[str]) -> str:
    """An RE2 character class of the given code points."""
    return "[" + "".join(f"\\x{{{ord(c):x}}}" for c in chars) + "]"


# str.isspace() (Unicode White_Space, bidi WS/B/S and category Zs): every such code point is below U+3001. The plain
# space is left out: it needs no replacing, and matching it at every word made the pass 4x slower.
_SPACE_CLASS = _char_class([chr(c) for c in range(0x3001) if chr(c).isspace() and c != 0x20])
_DASH_CLASS = "[\\p{Pd}" + _char_class(sorted(tx._DASHES))[1:]
_APOSTROPHE_CLASS = _char_class(sorted(tx._APOSTROPHES))


def normalize_array(texts: pa.Array) -> pa.Array:
    """``evalhouse.text.checks.normalize`` of every element (NULL stays NULL).

    NFC; every whitespace character -> ' '; every dash (category Pd, U+2212 ...) -> '-'; typographic apostrophes
    -> "'"; ``str.casefold``; NFC again; runs of spaces -> one; leading and trailing spaces removed.
    """
    t = pc.utf8_normalize(texts, "NFC")
    t = pc.replace_substring_regex(t, _SPACE_CLASS, " ")
    t = pc.replace_substring_regex(t, _DASH_CLASS, "-")
    t = pc.replace_substring_regex(t, _APOSTROPHE_CLASS, "'")
    # Arrow has no case folding (utf8_lower is not str.casefold: "ß" stays "ß").
    t = pa.array([s.casefold() if s is not None else None for s in t.to_pylist()], type=pa.large_string())
    t = pc.utf8_normalize(t, "NFC")
    t = pc.replace_substring_regex(t, " {2,}", " ")  # not " +": a match at every single space, 4x slower
    return pc.utf8_trim(t, " ")


# ---------------------------------------------------------------------------------------------------------------
# Sentences: a rule for plain prose, pysbd for the rest
# ---------------------------------------------------------------------------------------------------------------
# The rule counts sentence ends ('.', '!' or '?', then a space or the end of the text) plus a last unterminated
# fragment. It is applied only to texts whose every stop is of that plain kind; a text with anything pysbd treats
# specially (line breaks, quotes, brackets, ellipses, repeated stops, a stop followed by a lowercase word or glued
# to the next character, a stop after a digit, a single letter, a Roman numeral or a listed abbreviation,
# full-width stops, pysbd's exclamation words) goes to pysbd. The two abbreviations of everyday replies are
# rewritten first, as pysbd reads them: English "e.g." / "i.e." before a lowercase word are not sentence ends;
# French "p. ex." before a lowercase word ends a sentence after "p." (pysbd's French list lacks "p") and not
# after "ex.". Decimals ("12.50", "3,5") are not sentence ends.

_MARK = "\ue000"  # a private-use code point: a sentence end set by the rewriting above
_DECIMAL = r"([0-9])\.([0-9])"
_END = r"[.!?]( |$)"


def _re2_escape(s: str) -> str:
    return "".join("\\" + c if c in "\\.+*?()|[]{}^$-" else c for c in s)


@lru_cache(maxsize=2)
def _hard_pattern(lang: str) -> str:
    """RE2 pattern of what the rule leaves to pysbd, for 'en' or 'fr' rules."""
    return "|".join(_hard_parts(lang))


def _hard_parts(lang: str) -> list[str]:
    from pysbd.exclamation_words import ExclamationWords
    from pysbd.languages import Language
    from pysbd.lists_item_replacer import ListItemReplacer

    abbreviations = sorted(Language.get_language_code(lang).Abbreviation.ABBREVIATIONS, key=len, reverse=True)
    abbr = "|".join(_re2_escape(a) for a in abbreviations)
    exclaim = "|".join(_re2_escape(w) for w in ExclamationWords.EXCLAMATION_WORDS)
    roman = "|".join(sorted(set(ListItemReplacer.ROMAN_NUMERALS), key=len, reverse=True))
    return [
        r"[^\x{20}\x{21}\x{24}-\x{26}\x{2c}-\x{2e}\x{30}-\x{3b}\x{3f}\x{41}-\x{5a}\x{61}-\x{7a}\x{a0}-\x{ff}"
        # only letters, digits, space, , ; : - ' % $ € & . ! ?
        r"\pL\p{M}\pN\x{27}\x{2019}\x{2013}\x{2014}\x{20ac}\x{25}\x{e000}]",
        r"\x{a0}|\x{ab}|\x{bb}|\x{ad}",  # no-break space, guillemets, soft hyphen (in the Latin-1 range above)
        r"(^|\s)['\x{2019}]",  # a quote opening a quotation
        r"^ *[.!?]",  # a text opening with a stop
        r"[.!?] *[.!?]",  # repeated stops, ellipses
        r"[.!?][^ .!?]",  # a stop glued to the next character ("confirmée.Merci", "e.g", a URL)
        r"[.!?] +[^\p{Lu}]",  # a stop followed by a word that does not start with a capital
        r"[0-9][.!?]",  # a stop after a digit (numbered lists, numbers)
        r"(^|[^\pL\p{M}\pN])\pL\p{M}*[.!?]",  # a stop after a single letter ("M. Durand")
        r"(^|[^\pL\p{M}\pN])(?i:" + roman + r")\.",  # a Roman numeral of pysbd's list items
        r"(^|[^\pL\p{M}\pN.])(?i:" + abbr + r")\.",  # a listed abbreviation
        exclaim,
    ]


def _rewrite(texts: pa.Array, lang: str) -> pa.Array:
    t = pc.replace_substring_regex(texts, _DECIMAL, r"\1,\2")
    if lang == "en":
        t = pc.replace_substring_regex(t, r"(^|[^\pL\pN.])([eE])\.([gG])\. (\p{Ll})", r"\1\2\3 \4")
        t = pc.replace_substring_regex(t, r"(^|[^\pL\pN.])([iI])\.([eE])\. (\p{Ll})", r"\1\2\3 \4")
    else:
        t = pc.replace_substring_regex(t, r"(^|[^\pL\pN.])([pP])\. ([eE])x\. (\p{Ll})", r"\1\2" + _MARK + r" \3x \4")
    return t


def _rule_counts(texts: pa.Array, lang: str) -> pa.Array:
    """Counts by the rule, NULL where the text has something the rule leaves to pysbd."""
    t = _rewrite(texts, lang)
    hard = pc.or_(pc.match_substring_regex(texts, _MARK), pc.match_substring_regex(t, _hard_pattern(lang)))
    ends = pc.add(pc.count_substring_regex(t, _END), pc.count_substring(t, _MARK))
    stripped = pc.utf8_trim(t, " ")
    open_tail = pc.and_(pc.greater(pc.utf8_length(stripped), 0),
                        pc.invert(pc.match_substring_regex(stripped, r"[.!?" + _MARK + "]$")))
    counts = pc.add(ends, pc.cast(open_tail, pa.int32()))
    return pc.if_else(hard, pa.scalar(None, pa.int32()), pc.cast(counts, pa.int32()))


def _rules_language(languages: pa.Array) -> pa.Array:
    """pysbd's rule set per text, as ``evalhouse.text.checks.sentence_count`` picks it: 'fr' for French, else 'en'."""
    return pc.equal(pc.fill_null(languages, ""), "fr")


def rule_sentence_count_array(texts: pa.Array, languages: pa.Array) -> pa.Array:
    """Sentence counts by the rule alone (int32; NULL where the rule defers to pysbd or the text is NULL).

    Each language's rule runs on its own texts only (both rules on every text, then a choice, took twice as long),
    and the counts are put back in the texts' order."""
    texts = pc.cast(texts, pa.large_string())
    is_fr = _rules_language(languages)
    fr, en = pc.indices_nonzero(is_fr), pc.indices_nonzero(pc.invert(is_fr))
    counts = pa.concat_arrays([_rule_counts(pc.take(texts, fr), "fr"), _rule_counts(pc.take(texts, en), "en")])
    # counts[k] belongs to text order[k]; the k that holds text i is sort_indices(order)[i]
    order = pa.concat_arrays([fr, en])
    return pc.take(counts, pc.sort_indices(order))


def sentence_count_array(texts: pa.Array, languages: pa.Array) -> pa.Array:
    """``evalhouse.text.checks.sentence_count(text, language)`` of every element (int32; NULL for a NULL text).

    The rule above where it applies; pysbd (with the glued-stop separation) for the other texts.
    """
    texts = pc.cast(texts, pa.large_string())
    counts = rule_sentence_count_array(texts, languages)
    todo = pc.indices_nonzero(pc.and_(pc.is_null(counts), pc.is_valid(texts))).to_pylist()
    if not todo:
        return counts
    values = counts.to_pylist()
    pick_t, pick_l = pc.take(texts, todo).to_pylist(), pc.take(languages, todo).to_pylist()
    for i, t, lang in zip(todo, pick_t, pick_l):
        values[i] = _pysbd_sentence_count(t, "fr" if lang == "fr" else "en")
    return pa.array(values, type=pa.int32())


def _pysbd_sentence_count(text: str, language: str) -> int:
    """``evalhouse.text.checks.sentence_count(text, language)`` for a non-NULL text and 'fr' or 'en', a third faster.

    ``pysbd.Segmenter.segment`` (clean=False) gives back the sentences of its processor as they are in the text:
    for each, in order, the first occurrence of the sentence followed by any spaces (``\\s*``) that ends after the
    previous one's, a sentence with none being dropped; it finds them with a regular expression compiled per
    sentence (``Segmenter.sentences_with_char_spans``, pysbd 0.3.4), a third of its time. The same search with
    ``str.find`` counts the same sentences: no difference on 150k generated and bundled texts in both languages'
    rules (2026-12-07), and test_first_filter_frames.py compares them on bundled and generated hard texts (a new
    pysbd version is a change of the pinned requirement, compared there again).
    """
    if not text.strip():
        return 0
    prepared = tx._GLUED_STOP.sub(r"\1 ", text)
    n, prior_end = 0, 0
    for sentence in tx._segmenter(language).processor(prepared).process():
        start = 0
        while (found := prepared.find(sentence, start)) >= 0:
            end = found + len(sentence)
            while end < len(prepared) and prepared[end].isspace():
                end += 1
            if end > prior_end:
                prior_end = end
                n += bool(prepared[found:end].strip())
                break
            start = end if end > found else found + 1
    return n


# ---------------------------------------------------------------------------------------------------------------
# Language
# ---------------------------------------------------------------------------------------------------------------


def language_array(texts: pa.Array) -> tuple[pa.Array, pa.Array]:
    """(code, reason) per text: ``evalhouse.text.checks.detect_language`` for a text ('und' when CLD2 cannot tell);
    NULL with reason 'no reply text' for a NULL text."""
    # at least MIN_LETTERS_FOR_LANGUAGE letters: a search that stops at the 8th letter (removing every other
    # character and counting what is left took 45x longer)
    letters_ok = pc.match_substring_regex(
        pc.fill_null(texts, ""), r"\pL(?:[^\pL]*\pL){" + str(tx.MIN_LETTERS_FOR_LANGUAGE - 1) + "}")
    codes = [
        tx.cld2_language(t) if ok else (None if t is None else tx.UNDETERMINED)
        for t, ok in zip(texts.to_pylist(), letters_ok.to_pylist())
    ]
    codes_arr = pa.array(codes, type=pa.string())
    reasons = pc.if_else(pc.is_null(texts), pa.scalar(NO_TEXT_REASON), pa.scalar(None, pa.string()))
    return codes_arr, reasons


