{{ config(materialized='table') }}
-- Grounding accuracy per suite x run (system_id: a model / prompt configuration) x fact kind x answer
-- rule, one row per rule the suite declares (int_grade__answer_rules: suite.yml answer_rules; several at once). The
-- house rules come from fct_grade__fact_checks (passed_exact = house_exact, passed = house_tolerance; values
-- unchanged), the others from fct_grade__answer_rule_checks (evalhouse.rules). fact_kind 'all' = every fact kind
-- the rule scores in the suite.
with rules as (
    select suite, gold_kind, answer_rule from {{ ref('int_grade__answer_rules') }}
),

house_checks as (
    select
        checks.suite,
        checks.system_id,
        checks.fact_kind,
        rules.answer_rule,
        cast(case when rules.answer_rule = 'house_exact' then checks.passed_exact else checks.passed end as boolean)
                                                                        as passed,
        cast(case when (case when rules.answer_rule = 'house_exact' then checks.passed_exact else checks.passed end)
                  then 1 else 0 end as double)                          as score,
        checks.check_status in ('not_reported', 'no_number')            as no_answer
    from {{ ref('fct_grade__fact_checks') }} as checks
    inner join rules
        on rules.suite = checks.suite
       and rules.gold_kind = case checks.fact_kind when 'numeric' then 'numeric_fact' else 'string_fact' end
       and rules.answer_rule in ('house_exact', 'house_tolerance')
),

python_checks as (
    select
        suite,
        system_id,
        fact_kind,
        answer_rule,
        passed,
        score,
        rule_status in ('not_reported', 'no_number', 'invalid_marker', 'empty_prediction') as no_answer
    from {{ ref('fct_grade__answer_rule_checks') }}
),

checks as (
    select * from house_checks
    union all
    select * from python_checks
),

kinds as (
    select suite, system_id, fact_kind, answer_rule, passed, score, no_answer from checks
    union all
    select suite, system_id, 'all', answer_rule, passed, score, no_answer from checks
),

sources as (
    select 'house_exact' as answer_rule,
           'house rule: last number token of the reported answer = gold as DECIMAL(38,18); strings trimmed, exact (evalhouse.rules.house)' as rule_source
    union all
    select 'house_tolerance',
           'house rule: last number token within abs_tol + rel_tol x |gold|; strings case-folded (evalhouse.rules.house)'
    union all
    select 'tatqa_official_em',
           'TAT-QA official metric, exact match (NExTplusplus/TAT-QA tatqa_metric.py; evalhouse.rules.tatqa)'
    union all
    select 'tatqa_official_f1',
           'TAT-QA official metric, DROP token F1, = EM for arithmetic / count (NExTplusplus/TAT-QA; evalhouse.rules.tatqa)'
    union all
    select 'faithful_cot_gsm8k',
           'Faithful-CoT GSM8K: first number, truncated to int, absolute value, = gold (veronica320/Faithful-COT; evalhouse.rules.faithful_cot)'
)

select
    kinds.suite,
    kinds.system_id,
    kinds.fact_kind,
    kinds.answer_rule,
    cast(count(*) as integer)                                                   as n_items,
    cast(sum(case when kinds.passed then 1 else 0 end) as integer)              as n_correct,
    cast(sum(case when kinds.no_answer then 1 else 0 end) as integer)           as n_no_answer,
    cast(round(100.0 * sum(case when kinds.passed then 1 else 0 end) / count(*), 2) as decimal(5, 2)) as accuracy_pct,
    cast(round(100.0 * sum(kinds.score) / count(*), 2) as decimal(5, 2))        as mean_score_pct,
    sources.rule_source
from kinds
left join sources on sources.answer_rule = kinds.answer_rule
group by kinds.suite, kinds.system_id, kinds.fact_kind, kinds.answer_rule, sources.rule_source
