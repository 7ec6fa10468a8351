{%- set triples = answer_rules_checked() -%}
{%- set suites = var('grade_grounding_suites') -%}
-- One row per gold fact x response x answer rule computed in Python (every rule of var('answer_rules') except the
-- house rules, whose values come from fct_grade__fact_checks): the gold and the reply as the rules read them.
-- TAT-QA facts carry the question's answer_type, gold scale and exact JSON answers, and the run's predicted scale
-- (from stg_grade_tatqa__questions / __predictions); GSM8K replies carry their exact JSON (stg_grade_gsm8k__predictions);
-- other suites leave those NULL.
with rules as (
    {{ answer_rules_relation(triples) }}
),

python_rules as (
    select suite, gold_kind, answer_rule from rules where answer_rule not in ('house_exact', 'house_tolerance')
),

gold as (
    select suite, item_id, gold_kind, gold_key, gold_value, abs_tol, rel_tol
    from {{ ref('int_gold') }}
    where suite in ('{{ suites | join("', '") }}')
),

responses as (
    select suite, response_id, item_id, system_id
    from {{ ref('int_responses') }}
    where suite in ('{{ suites | join("', '") }}')
),

labels as (
    select suite, response_id, label_name, label_value
    from {{ ref('int_response_labels') }}
    where suite in ('{{ suites | join("', '") }}')
),

tatqa_questions as (
    select question_id, answer_type, scale, gold_answer_json
    from {{ ref('stg_grade_tatqa__questions') }}
),

tatqa_predictions as (
    select response_id, pred_answer_json, pred_scale
    from {{ ref('stg_grade_tatqa__predictions') }}
),

gsm8k_predictions as (
    select response_id, answer_json
    from {{ ref('stg_grade_gsm8k__predictions') }}
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
    tatqa_questions.answer_type,
    tatqa_questions.scale                       as gold_scale,
    tatqa_questions.gold_answer_json            as gold_json,
    labels.label_value                          as reply_text,
    case when labels.label_value is not null
         then coalesce(tatqa_predictions.pred_answer_json, gsm8k_predictions.answer_json) end as reply_json,
    tatqa_predictions.pred_scale                as reply_scale
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
left join tatqa_questions
    on responses.suite = 'grade_tatqa'
   and tatqa_questions.question_id = responses.item_id
left join tatqa_predictions
    on responses.suite = 'grade_tatqa'
   and tatqa_predictions.response_id = responses.response_id
left join gsm8k_predictions
    on responses.suite = 'grade_gsm8k'
   and gsm8k_predictions.response_id = responses.response_id
