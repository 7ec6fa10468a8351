-- The answer rules each suite declared as a folder chooses per gold kind (suite.yml answer_rules; names checked
-- against evalhouse.rules by `evalhouse suite land`): one row per suite x gold kind x rule.
select
    cast(suite as string)        as suite,
    cast(gold_kind as string)    as gold_kind,
    cast(answer_rule as string)  as answer_rule
from {{ read_source('suites', 'answer_rules') }}
