"""The frame-level first filter used by the dbt Python models."""
import pandas as pd

from evalhouse.first_filter import PHRASE_CHECK_COLUMNS, TEXT_CHECK_COLUMNS, phrase_checks, text_checks


def test_text_checks_frame():
    responses = pd.DataFrame({
        "suite": ["s", "s", "s"], "response_id": ["a", "b", "c"],
        "response_text": ["Votre commande est confirmée.Merci de votre confiance.", None, "OK"],
        "raw_output": ['```json\n{"a": 1}\n```', None, '{"a": NaN}'],
    })
    out = text_checks(responses)
    assert list(out.columns) == TEXT_CHECK_COLUMNS
    assert out["json_fenced"].tolist() == [True, pd.NA, False]
    assert out["json_check_reason"].tolist()[1] == "raw output not recorded"
    assert out["detected_language"].tolist() == ["fr", "und", "und"]
    assert out["sentence_count"].tolist() == [2, pd.NA, 1]


def test_text_checks_of_nothing_keeps_types():
    empty = pd.DataFrame({"suite": [], "response_id": [], "response_text": [], "raw_output": []})
    out = text_checks(empty)
    assert len(out) == 0 and str(out["response_id"].dtype) == "string"


def test_phrase_checks_s11_refusal():
    responses = pd.DataFrame({"suite": ["l"], "response_id": ["r"], "item_id": ["S11"],
                              "response_text": ["Nous ne pouvons pas vous envoyer votre mot de passe."]})
    gold = pd.DataFrame({"suite": ["l", "l"], "item_id": ["S11", "S11"],
                         "gold_kind": ["forbidden_phrase", "required_phrase"],
                         "gold_value": ["envoyer votre mot de passe", "mot de passe"]})
    frame = phrase_checks(responses, gold)
    assert list(frame.columns) == PHRASE_CHECK_COLUMNS
    out = frame.set_index("gold_kind")
    assert out.loc["forbidden_phrase", "found_plain"] == True  # noqa: E712 (pandas boolean)
    assert out.loc["forbidden_phrase", "violation_negation_aware"] == False  # noqa: E712
    assert out.loc["required_phrase", "found_normalized"] == True  # noqa: E712
