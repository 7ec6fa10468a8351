-- The answer rules of every grounding suite, one row per suite x gold kind x rule: suite.yml's answer_rules
-- (checked against evalhouse.rules by `evalhouse suite land`).
select suite, gold_kind, answer_rule
from {{ ref('stg_suites__answer_rules') }}
