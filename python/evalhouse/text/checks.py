"""Deterministic first-filter checks on reply texts: JSON validity, sentences, language, phrase search.

These are the checks a program can make before a person reads a reply (seed 000, "Larkfield": "the automatic
check is useful as a first filter, but a person must read the replies"). Every function is pure and
deterministic: the same text always gives the same answer.
"""
from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

# ---------------------------------------------------------------------------------------------------------------
# Normalisation and phrase search
# ---------------------------------------------------------------------------------------------------------------

_DASHES = {"\u2212", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2015", "\ufe58", "\ufe63", "\uff0d"}
_APOSTROPHES = {"\u2019", "\u2018", "\u02bc", "\u00b4", "\uff07"}


def normalize(text: str) -> str:
    """Normalise a text for phrase search.

    Steps: Unicode NFC (a combining accent becomes the precomposed letter); every space separator (Unicode
    category Zs: no-break, narrow no-break, thin, ideographic spaces...) and every whitespace run becomes one
    ASCII space (the NFKC folding of spaces, without NFKC's other changes); every dash (category Pd and U+2212
    minus) becomes '-'; typographic apostrophes become "'"; then case folding (``str.casefold``: "Große" ->
    "grosse") and NFC again. Digits are never changed (no NFKC: a superscript '²' stays '²'). Leading and
    trailing spaces are removed.
    """
    t = unicodedata.normalize("NFC", text)
    out = []
    for ch in t:
        if ch.isspace() or unicodedata.category(ch) == "Zs":
            out.append(" ")
        elif ch in _DASHES or unicodedata.category(ch) == "Pd":
            out.append("-")
        elif ch in _APOSTROPHES:
            out.append("'")
        else:
            out.append(ch)
    t = unicodedata.normalize("NFC", "".join(out).casefold())
    return re.sub(" +", " ", t).strip()


@lru_cache(maxsize=4096)
def _phrase_pattern(phrase_normalized: str) -> re.Pattern:
    # Whole-word match: not preceded or followed by a letter or digit ("30 jours" is not in "130 jours").
    return re.compile(r"(?<![^\W_])" + re.escape(phrase_normalized) + r"(?![^\W_])")


def contains_plain(text: str, phrase: str) -> bool:
    """The plain word search (Larkfield's published check): ``phrase.lower()`` is a substring of ``text.lower()``."""
    return phrase.lower() in text.lower()


def contains_normalized(text: str, phrase: str) -> bool:
    """True when the normalised phrase occurs in the normalised text as whole words (see ``normalize``).

    "30 jours" is present in "sous 30\\u202Fjours"; "30 days" is absent from "a 30-day window"; "30 jours" is
    absent from "31 jours" and from "130 jours". An empty phrase raises ValueError.
    """
    p = normalize(phrase)
    if not p:
        raise ValueError("empty phrase")
    return _phrase_pattern(p).search(normalize(text)) is not None


# Negation cues (English and French), matched as whole normalised words in the clause before the phrase.
_NEGATION = re.compile(
    r"(?<![^\W_])(not|no|never|cannot|can't|won't|don't|doesn't|didn't|isn't|aren't|unable|nor|"
    r"ne|n'|pas|jamais|aucun|aucune|impossible|interdit)(?![^\W_])"
)
# Expressions whose negation encourages the action ("do not hesitate to send"): removed before looking for cues.
_ENCOURAGEMENT = re.compile(
    r"(do not|don't|never) hesitate|feel free|(n'|ne )h[ée]sitez pas|(n'|ne )h[ée]site pas|ne pas h[ée]siter"
)
_CLAUSE_END = re.compile(r"[.!?;:]")
_WINDOW_WORDS = 8


@dataclass(frozen=True)
class ForbiddenCheck:
    """Result of a forbidden-phrase check on one text."""

    found_plain: bool  # the plain word search: the phrase occurs (case-insensitive substring)
    occurrences: int  # whole-word occurrences after normalisation
    negated_occurrences: int  # of those, how many are negated in their clause
    violation: bool  # negation-aware verdict: some occurrence is not negated


def check_forbidden(text: str, phrase: str) -> ForbiddenCheck:
    """Negation-aware check of a forbidden phrase.

    Each whole-word occurrence (after ``normalize``) is negated when the words before it in the same clause (at
    most 8 words, back to the previous . ! ? ; or :) contain a negation cue (en: not, no, never, cannot, can't,
    won't, don't, unable, ...; fr: ne, n', pas, jamais, aucun, impossible), after removing encouragement idioms
    whose negation invites the action ("do not hesitate", "feel free", "n'hésitez pas"). The phrase violates the
    key when at least one occurrence is not negated.

    "nous ne pouvons pas vous envoyer votre mot de passe" vs "envoyer votre mot de passe": found by the plain
    search, not a violation. "do not hesitate to send your password" vs "send your password": a violation.
    """
    norm_text, norm_phrase = normalize(text), normalize(phrase)
    if not norm_phrase:
        raise ValueError("empty phrase")
    occurrences = negated = 0
    for m in _phrase_pattern(norm_phrase).finditer(norm_text):
        occurrences += 1
        before = _CLAUSE_END.split(norm_text[: m.start()])[-1]
        window = " ".join(before.split()[-_WINDOW_WORDS:])
        window = _ENCOURAGEMENT.sub(" ", window)
        if _NEGATION.search(window):
            negated += 1
    return ForbiddenCheck(
        found_plain=contains_plain(text, phrase),
        occurrences=occurrences,
        negated_occurrences=negated,
        violation=occurrences > negated,
    )


# ---------------------------------------------------------------------------------------------------------------
# JSON validity
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class JsonFlags:
    """JSON validity of a raw model output as three flags (None when the raw output was not recorded)."""

    strict: bool | None  # the whole output (surrounding whitespace allowed) is one JSON value
    fenced: bool | None  # the whole output is one Markdown fence tagged json or untagged, whose body parses
    extractable: bool | None  # strict, or some json-tagged or untagged fenced block parses
    reason: str | None = None


def _reject_constant(name: str):
    raise ValueError(f"{name} is not JSON (RFC 8259)")


def parses_as_json(text: str) -> bool:
    """RFC 8259 parse: ``NaN``, ``Infinity`` and ``-Infinity`` are rejected (Python's json accepts them)."""
    try:
        json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return False
    return True


_FENCE_BLOCK = re.compile(r"```([^\n`]*)\n(.*?)```", re.DOTALL)
_WHOLE_FENCE = re.compile(r"\A\s*```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\n(.*?)\n?[ \t]*```\s*\Z", re.DOTALL)


def json_flags(raw_output: str | None) -> JsonFlags:
    """The three JSON flags of a raw output (see ``JsonFlags``).

    '```json\\n{"a": 1}\\n```' -> strict False, fenced True, extractable True;
    'Here it is:\\n```json\\n{"a": 1}\\n```' -> False, False, True;
    '```bash\\nls\\n```\\n{"a": 1}' -> False, False, False; '{"a": NaN}' -> all False.
    None -> all None with reason "raw output not recorded".
    """
    if raw_output is None:
        return JsonFlags(None, None, None, "raw output not recorded")
    strict = parses_as_json(raw_output)
    whole = _WHOLE_FENCE.match(raw_output)
    fenced = bool(
        whole
        and whole.group(1).lower() in ("", "json")
        and "```" not in whole.group(2)
        and parses_as_json(whole.group(2))
    )
    extractable = strict or any(
        m.group(1).strip().lower() in ("", "json") and parses_as_json(m.group(2))
        for m in _FENCE_BLOCK.finditer(raw_output)
    )
    return JsonFlags(strict, fenced, extractable)


# ---------------------------------------------------------------------------------------------------------------
# Language and sentences
# ---------------------------------------------------------------------------------------------------------------

MIN_LETTERS_FOR_LANGUAGE = 8
UNDETERMINED = "und"


def detect_language(text: str | None) -> str:
    """ISO 639-1 code of the text's language by CLD2 (pycld2: deterministic, good on short texts), or 'und'.

    'und' when the text has fewer than 8 letters ("OK"), or CLD2 does not call its guess reliable or knows no
    language. "Merci, c'est noté." -> 'fr'; "Your refund is confirmed." -> 'en'.
    """
    if text is None:
        return UNDETERMINED
    if sum(ch.isalpha() for ch in text) < MIN_LETTERS_FOR_LANGUAGE:
        return UNDETERMINED
    return cld2_language(text)


def cld2_language(text: str) -> str:
    """CLD2's language of a text (no letter-count check; see ``detect_language``): its code, or 'und' when CLD2
    does not call its guess reliable or knows no language."""
    import pycld2

    try:
        reliable, _, details = pycld2.detect(text)
    except pycld2.error:
        # CLD2 rejects some invalid UTF-8 (lone surrogates): clean them and try once more.
        reliable, _, details = pycld2.detect(text.encode("utf-8", "replace").decode("utf-8"))
    code = details[0][1]
    if not reliable or code in ("un", "xxx"):
        return UNDETERMINED
    return code


# "confirmée.Merci": a sentence stop glued to the next capitalised word (pysbd misses it); not "e.g.For", "12.50".
_GLUED_STOP = re.compile(r"(?<=[^\W\d_]{2})([.!?])(?=[^\W\d_a-zà-ÿ])")


@lru_cache(maxsize=8)
def _segmenter(language: str):
    import pysbd

    return pysbd.Segmenter(language=language, clean=False)


def sentence_count(text: str | None, language: str | None = None) -> int | None:
    """Number of sentences by pysbd (French rules for 'fr', English otherwise), after separating a full stop
    glued to the next capitalised word. None for a missing text; 0 for an empty one.

    "Votre commande est confirmée.Merci de votre confiance." = 2; "The total is 12.50 EUR. Thanks!" = 2;
    "Returns are accepted within 30 days, e.g. for unopened items. Refunds take 5 days." = 2.
    """
    if text is None:
        return None
    if not text.strip():
        return 0
    lang = language if language in ("fr", "en") else (detect_language(text) if language is None else "en")
    if lang not in ("fr", "en"):
        lang = "en"
    prepared = _GLUED_STOP.sub(r"\1 ", text)
    return sum(1 for s in _segmenter(lang).segment(prepared) if s.strip())
