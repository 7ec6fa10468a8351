-- One row per gold fact x response x answer rule computed in Python (every rule of int_grade__answer_rules except
-- the house rules, whose values come from fct_grade__fact_checks): the gold and the reply as the rules read them.
-- What a rule needs beyond the value comes from metadata JSON: the gold fact's answer_type, scale and exact JSON
-- answer (TAT-QA), the response's exact JSON answer (TAT-QA, GSM8K) and predicted scale (TAT-QA); NULL when the
-- metadata lacks them.
with python_rules as (
    select suite, gold_kind, answer_rule
    from {{ ref('int_grade__answer_rules') }}
    where answer_rule not in ('house_exact', 'house_tolerance')
),

grounding_suites as (
    select suite from {{ ref('int_grade__grounding_suites') }}
),

gold as (
    select
        suite, item_id, gold_kind, gold_key, gold_value, abs_tol, rel_tol,
        {{ json_text('metadata', 'answer_type') }}              as answer_type,
        nullif({{ json_text('metadata', 'scale') }}, '')        as gold_scale,
        {{ json_text('metadata', 'answer_json') }}              as gold_json
    from {{ ref('int_gold') }}
    where suite in (select grounding_suites.suite from grounding_suites)
),

responses as (
    select
        suite, response_id, item_id, system_id,
        {{ json_text('metadata', 'answer_json') }}              as reply_json,
        nullif({{ json_text('metadata', 'scale') }}, '')        as reply_scale
    from {{ ref('int_responses') }}
    where suite in (select grounding_suites.suite from grounding_suites)
),

labels as (
    select suite, response_id, label_name, label_value
    from {{ ref('int_response_labels') }}
    where suite in (select grounding_suites.suite from grounding_suites)
)

select
    responses.suite,
    responses.response_id,
    responses.item_id,
    responses.system_id,
    gold.gold_kind,
    gold.gold_key                               as fact_key,
    gold.gold_value,
    gold.abs_tol,
    gold.rel_tol,
    python_rules.answer_rule,
    gold.answer_type,
    gold.gold_scale,
    gold.gold_json,
    labels.label_value                          as reply_text,
    case when labels.label_value is not null then responses.reply_json end as reply_json,
    responses.reply_scale
from responses
inner join gold
    on gold.suite = responses.suite
   and gold.item_id = responses.item_id
inner join python_rules
    on python_rules.suite = gold.suite
   and python_rules.gold_kind = gold.gold_kind
left join labels
    on labels.response_id = responses.response_id
   and labels.label_name = gold.gold_key
