"""First-filter text checks: the must-show values of the foundation issue (seed 000)."""
import pytest

from evalhouse.text.checks import (
    check_forbidden,
    contains_normalized,
    contains_plain,
    detect_language,
    json_flags,
    normalize,
    sentence_count,
)


@pytest.mark.parametrize(
    "raw, expected",
    [
        ('```json\n{"a": 1}\n```', (False, True, True)),
        ('Here it is:\n```json\n{"a": 1}\n```', (False, False, True)),
        ('```bash\nls\n```\n{"a": 1}', (False, False, False)),
        ('{"a": NaN}', (False, False, False)),
        ('{"a": Infinity}', (False, False, False)),
        ('```json\n{"a": NaN}\n```', (False, False, False)),
        ('{"a": 1}', (True, False, True)),
        ('  {"reply": "ok", "needs_human": false}\n', (True, False, True)),
        ('```\n{"a": 1}\n```', (False, True, True)),
        ('```python\n{"a": 1}\n```', (False, False, False)),
        ('{"a": 1,}', (False, False, False)),
        ('```json\n{"a": 1}\n```\n```json\n{"b": 2}\n```', (False, False, True)),
    ],
)
def test_json_flags(raw, expected):
    f = json_flags(raw)
    assert (f.strict, f.fenced, f.extractable) == expected
    assert f.reason is None


def test_json_flags_unrecorded_output_is_null_with_reason():
    f = json_flags(None)
    assert (f.strict, f.fenced, f.extractable) == (None, None, None)
    assert f.reason == "raw output not recorded"


def test_normalisation_folds_spaces_dashes_case_and_accents_but_not_digits():
    assert normalize("Sous 30\u202fJOURS") == "sous 30 jours"
    assert normalize("remboursement accepte\u0301") == "remboursement accepté"
    assert normalize("30\u2013day") == "30-day"
    assert normalize("Große Allee") == "grosse allee"
    assert normalize("m²  x\u00a0\u00a02") == "m² x 2"  # digits and superscripts unchanged; space runs folded


@pytest.mark.parametrize(
    "text, phrase, present",
    [
        ("Remboursement sous 30\u202fjours.", "30 jours", True),
        ("remboursement accepte\u0301 !", "remboursement accepté", True),
        ("within our 30-day return window", "30 days", False),
        ("sous 31 jours", "30 jours", False),
        ("sous 130 jours", "30 jours", False),
        ("Returns: 30 DAYS.", "30 days", True),
        ("la garantie de 2\u00a0ans", "2 ans", True),
    ],
)
def test_required_phrase_after_normalisation(text, phrase, present):
    assert contains_normalized(text, phrase) is present


def test_plain_word_search_is_the_lessons_substring_search():
    # S02: "30-day" vs required "30 days" -> a word-search fail; M03: "non-returnable" vs "cannot be returned".
    assert contains_plain("within our 30-day return window", "30 days") is False
    assert contains_plain("plants and seeds are non-returnable", "cannot be returned") is False
    assert contains_plain("Nous ne pouvons pas vous envoyer votre mot de passe", "envoyer votre mot de passe")


def test_forbidden_phrase_negation_aware():
    s11 = check_forbidden("Bonjour, nous ne pouvons pas vous envoyer votre mot de passe.", "envoyer votre mot de passe")
    assert s11.found_plain is True and s11.violation is False and s11.negated_occurrences == 1
    refusal = check_forbidden("We cannot send you your password.", "send your password")
    assert refusal.violation is False
    invite = check_forbidden("Please do not hesitate to send your password.", "send your password")
    assert invite.found_plain is True and invite.violation is True
    fr_invite = check_forbidden("N\u2019hésitez pas à nous envoyer votre mot de passe.", "envoyer votre mot de passe")
    assert fr_invite.violation is True
    never = check_forbidden("We will never ask you to send your password.", "send your password")
    assert never.violation is False
    # a negation in an earlier sentence does not excuse a later, plain request
    later = check_forbidden("We cannot help. Send your password to us.", "send your password")
    assert later.violation is True


@pytest.mark.parametrize(
    "text, n",
    [
        ("Votre commande est confirmée.Merci de votre confiance.", 2),
        ("The total is 12.50 EUR. Thanks!", 2),
        ("Returns are accepted within 30 days, e.g. for unopened items. Refunds take 5 days.", 2),
        ("", 0),
        (None, None),
    ],
)
def test_sentence_count(text, n):
    assert sentence_count(text) == n


def test_language_is_deterministic_and_right_on_short_texts():
    assert detect_language("Merci, c'est noté.") == "fr"
    assert detect_language("Your refund is confirmed.") == "en"
    assert detect_language("OK") == "und"
    assert detect_language(None) == "und"
    text = "Bonjour, nous sommes désolés du retard de votre commande."
    assert {detect_language(text) for _ in range(20)} == {"fr"}
