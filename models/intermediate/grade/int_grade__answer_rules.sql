{%- set triples = answer_rules_checked() -%}
-- The answer rules of every grounding suite, one row per suite x gold kind x rule: the declared suites' suite.yml
-- answer_rules (checked by `evalhouse suite land`) and var('answer_rules') for the hand-mapped suites (checked at
-- parse time by macro answer_rules_checked).
with mapped as (
    {{ answer_rules_relation(triples) }}
)

select suite, gold_kind, answer_rule
from {{ ref('stg_suites__answer_rules') }}
union all
select suite, gold_kind, answer_rule
from mapped
