-- Decision rules and composite weights per rubric from each suite.yml: rule ready_gate / content_verdict (one row
-- per criterion, weight NULL) or composite_weight (weight of the criterion).
select
    cast(suite as string)           as suite,
    cast(rubric_id as string)       as rubric_id,
    cast(rule as string)            as rule,
    cast(criterion as string)       as criterion,
    cast(weight as decimal(18, 6))   as weight
from {{ read_source('suites', 'rubric_rules') }}
