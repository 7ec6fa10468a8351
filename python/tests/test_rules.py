"""Answer rules (evalhouse.rules): the sources' own test cases and hand-checked rows per answer type."""
from __future__ import annotations

from decimal import Decimal

import pytest

from evalhouse.rules import apply_rule
from evalhouse.rules.faithful_cot import faithful_cot_gsm8k, faithful_cot_gsm8k_answer
from evalhouse.rules.house import house_exact, house_tolerance
from evalhouse.rules.tatqa import normalize_answer, tatqa_official, to_number

# ---- TAT-QA: the cases of the official repository's tatqa_metric_test.py (gold, pred, pred_scale, em, f1) ----
OFFICIAL_CASES = [
    (("span", ["here is, a test"], ""), "here is, a test", "", 1, 1),
    (("span", ["1234.1"], "million"), "1234.1", "thousand", 0, 0),
    (("span", ["1234.1"], "million"), "123", "thousand", 0, 0),
    (("span", ["12314.1"], "million"), "12314.1", "million", 1, 1),
    (("multi-span", ["singapore", "china", "usa"], ""), ["singapore", "china", "usa"], "", 1, 1),
    (("multi-span", ["singapore", "china", "usa"], ""), ["china", "singapore", "usa"], "", 1, 1),
    (("multi-span", ["singapore", "china", "usa"], ""), ["china", "singapore"], "", 0, 0.8),
    (("arithmetic", 123.2, "million"), 123.2, "", 0, 0),
    (("arithmetic", 123.2, "million"), 123200000, "", 1, 1),
    (("arithmetic", 123.2, "million"), 123.2, "thousand", 0, 0),
    (("arithmetic", 123.2, ""), 123.2, "", 1, 1),
    (("arithmetic", 123.22, ""), 123.2, "", 0, 0),
    (("arithmetic", 123.2, ""), 123.2010, "", 1, 1),
    (("count", 5, ""), 5, "", 1, 1),
    (("arithmetic", 22.12, "percent"), 0.2212, "", 1, 1),
    (("arithmetic", 22.12, "percent"), 0.22121, "percent", 0, 0),
    (("arithmetic", 22.12, "percent"), 22.1231, "", 0, 0),
    (("arithmetic", 22.12, "percent"), 22.1231, "percent", 1, 1),
    (("span", [22.12], "million"), "22.12", "million", 1, 1),
    (("span", [22.12], "million"), "22.12", "", 0, 0),
    (("arithmetic", 22.12, "million"), "test", "", 0, 0),
    (("arithmetic", 22.12, "million"), ["1", "2"], "", 0, 0),
    (("span", [22.12], "percent"), "-22.12", "", 0, 0),
    (("span", [22.12], "percent"), "22.12%", "", 1, 1),
    (("span", [22.12], ""), "22.12%", "", 0, 0),
    (("span", [22.12], "million"), "$22.12", "", 0, 0),
    (("arithmetic", 22.12, "million"), "$22.12", "", 0, 0),
    (("span", ["22.12"], "percent"), ["-22.12"], "", 0, 0),
    (("span", ["$1.0 million"], ""), ["['$1.0 million']"], "", 1, 1),
    (("span", [22.12], ""), "$22.12", "", 1, 1),
    (("span", [22.12], "percent"), "22.12%", "percent", 1, 1),
    (("count", 5, ""), "abcd 5", "1", 0, 0),
    (("multi-span", ["$23,234", "$234.12"], ""), ["234.12", "23,234"], "", 1, 1),
    (("multi-span", ["$35,120", "$24,159"], ""), ["$24,159", "$35,120"], "", 1, 1),
    (("arithmetic", ["34.12"], "percent"), ["0.3412"], "", 1, 1),
    (("span", ["wages and salaries, social security costs, pension and other costs and share-based payments, "
               "see note 10 of the Financial Statements"], ""),
     ["wages and salaries, social security costs, pension and other costs and share - based payments,"], "", 0, 0.67),
]


@pytest.mark.parametrize("gold,pred,pred_scale,em,f1", OFFICIAL_CASES)
def test_tatqa_official_repository_cases(gold, pred, pred_scale, em, f1):
    answer_type, answer, scale = gold
    s = tatqa_official(answer, answer_type, scale, pred, pred_scale)
    assert (s.em, s.f1) == (em, f1)


def test_tatqa_official_utils_cases():
    # tatqa_utils_test.py of the official repository
    assert to_number("2.3 million") == 2300000
    assert to_number("-2.3 thousand") == -2300
    assert to_number("205 billion") == 205000000000
    assert to_number("-1,210 million") == -1210000000
    assert normalize_answer("-134.12") == "-134.12"
    assert normalize_answer("(134.12)") == "-134.12"
    assert normalize_answer("18.3%") == "0.183"


# ---- hand-checked rows (worked through the steps of evalhouse.rules.tatqa by hand) ----
# (answer_type, gold, scale, prediction, pred_scale, em, f1)
HAND_ARITHMETIC = [
    ("arithmetic", -12.6, "million", "-12.6 million", "", 1, 1),        # -12600000.0000 both sides
    ("arithmetic", -12.6, "million", -12.600000000000001, "million", 1, 1),  # rounded to 2 dp, then x 1e6
    ("arithmetic", -12.6, "million", 12.6, "million", 0, 0),            # sign flip is wrong
    ("arithmetic", -22.22, "percent", -22.222222222222225, "percent", 1, 1),  # -0.2222 both sides
    ("arithmetic", -22.22, "percent", -0.2222, "", 1, 1),               # bare fraction: the %.4f candidate
    ("arithmetic", -22.22, "percent", "-22.22%", "", 1, 1),             # '%' handled in the string
    ("arithmetic", 1496.5, "thousand", 1496.5, "thousand", 1, 1),
    ("arithmetic", 1496.5, "thousand", 1496.5, "", 0, 0),               # scale missing
    ("arithmetic", 1.5, "billion", 1500, "million", 1, 1),              # 1500 x 1e6 = 1.5 x 1e9, printed alike
    ("arithmetic", 7.45, "", 7.449, "", 1, 1),                          # round(7.449, 2) = 7.45
    ("arithmetic", 7.45, "", 7.444, "", 0, 0),                          # 7.44
    ("arithmetic", 2.5, "", 0, "", 0, 0),                               # 0 is 'no prediction'
]
HAND_COUNT = [
    ("count", "2", "", "2", "", 1, 1), ("count", "2", "", 2, "", 1, 1), ("count", "2", "", "two", "", 0, 0),
    ("count", "3", "", "3.0", "", 1, 1), ("count", "3", "", "3 items", "", 0, 0), ("count", "4", "", [4], "", 1, 1),
    ("count", "4", "", ["4", "5"], "", 0, 0), ("count", "1", "", "1%", "", 0, 0), ("count", "10", "", 10.004, "", 1, 1),
    ("count", "10", "", "", "", 0, 0), ("count", "6", "", "6", "percent", 0, 0),
]
HAND_SPAN = [
    ("span", ["2019"], "", "2019", "", 1, 1), ("span", ["2019"], "", ["2019"], "", 1, 1),
    ("span", ["The Company"], "", "company", "", 1, 1),                 # lower-case, article removed
    ("span", ["cost of sales"], "", "Cost of sales.", "", 1, 1),        # punctuation removed
    ("span", ["cost of sales"], "", "cost of goods sold", "", 0, 0.57),  # {cost, of}: p 2/4, r 2/3, F1 4/7
    ("span", ["$1,496.5"], "thousand", "1496.5", "thousand", 1, 1),     # number span scaled
    ("span", ["$1,496.5"], "thousand", "1496.5", "", 0, 0),
    ("span", ["12%"], "percent", "12%", "", 1, 1),                      # '%' in the gold: 0.1200 both
    ("span", ["(134)"], "", "-134", "", 1, 1),                          # brackets = negative
    ("span", ["December 31, 2019"], "", "Dec 31 2019", "", 0, 0.67),    # {31, 2019} of 3 tokens each
    ("span", ["North America"], "million", "North America", "million", 1, 1),  # text + scale word both sides
    ("span", ["North America"], "million", "North America", "", 0, 0.8),  # 'million' missing: 2/2 and 2/3
]
HAND_MULTI_SPAN = [
    ("multi-span", ["2019", "2018"], "", ["2018", "2019"], "", 1, 1),   # sorted before joining
    ("multi-span", ["2019", "2018"], "", "2018 and 2019", "", 0, 0),    # gold numbers print as 2018.0, text keeps 2018
    ("multi-span", ["2019", "2018"], "", ["2019"], "", 0, 0.67),
    ("multi-span", ["Singapore", "china"], "", ["china", "singapore"], "", 0, 1),  # sorted case-sensitively
    ("multi-span", ["a b", "c"], "", ["c", "a b"], "", 1, 1),
    ("multi-span", ["1,000", "2,000"], "thousand", ["1000", "2000"], "thousand", 1, 1),
    ("multi-span", ["1,000", "2,000"], "thousand", ["1000", "2000"], "", 0, 0),
    ("multi-span", ["x", "x"], "", ["x"], "", 0, 1),                    # token SET F1: duplicates collapse
    ("multi-span", ["revenue", "cost"], "", ["cost", "revenue", "tax"], "", 0, 0.8),
    ("multi-span", ["revenue", "cost"], "", [], "", 0, 0),              # empty list: no prediction
    ("multi-span", ["5%", "6%"], "percent", ["5%", "6%"], "", 1, 1),
]


@pytest.mark.parametrize("row", HAND_ARITHMETIC + HAND_COUNT + HAND_SPAN + HAND_MULTI_SPAN)
def test_tatqa_hand_checked(row):
    answer_type, gold, scale, pred, pred_scale, em, f1 = row
    s = tatqa_official(gold, answer_type, scale, pred, pred_scale)
    assert (s.em, s.f1) == (em, f1), s


def test_tatqa_scale_product_is_compared_as_printed_strings():
    # 1500 million = 1.5 billion, but the metric rounds first and compares printed values: both 1500000000.0000
    s = tatqa_official(1.5, "arithmetic", "billion", 1500, "million")
    assert s.gold == s.candidates[0] == "1500000000.0"


# ---- Faithful-CoT GSM8K (source/dataset/utils.py at 301784317c99) ----
@pytest.mark.parametrize("answer,gold,ok,value", [
    ("18", "18", True, 18), ("18.0", "18", True, 18), ("22.666666666666668", "22", True, 22),
    ("22.9999999", "23", False, 22), ("-5", "5", True, 5), (-5, "5", False, -5),
    ("$1,200 in total", "1200", True, 1200), ("He had 5 apples, ate 2, so 3 are left", "3", False, 5),
    ("[invalid]", "3", False, None), ("[error]", "3", False, None), ("1e+20", "1", True, 1),
    ("3/4", "3", True, 3), ("The answer is .", "5", False, None), ("1.2.3", "1", False, None),
    ("#### 70,000", "70000", True, 70000), (70000, "#### 70,000", True, 70000),
])
def test_faithful_cot_gsm8k(answer, gold, ok, value):
    assert faithful_cot_gsm8k(gold, answer) is ok
    assert faithful_cot_gsm8k_answer(answer).value == value


# ---- house rules ----
def test_house_rules():
    assert house_exact("numeric_fact", "12.6", "fell from 14 to 12.60")
    assert not house_exact("numeric_fact", "12.6", "12.6 then 14")
    assert house_tolerance("numeric_fact", "100", "100.1", 0, Decimal("0.001"))
    assert not house_tolerance("numeric_fact", "100", "100.2", 0, Decimal("0.001"))
    assert house_tolerance("numeric_fact", "-22.22", "-22.222222222222225", Decimal("0.005"), Decimal("0.001"))
    assert house_exact("numeric_fact", "60", "60%") is not False  # percent kept as written: 60% is 60
    assert house_exact("string_fact", "Paris", " Paris ") and not house_exact("string_fact", "Paris", "paris")
    assert house_tolerance("string_fact", "GROSSE ALLEE", "Große Allee")
    assert not house_tolerance("numeric_fact", "5", None)


# ---- a rule on a gold kind it does not score ----
def test_a_rule_refuses_a_gold_kind_it_does_not_apply_to():
    with pytest.raises(ValueError, match="does not apply"):
        apply_rule("faithful_cot_gsm8k", {"gold_kind": "string_fact", "gold_value": "x", "reply_text": "x"})
