-- Decision rules and composite weights per rubric from each suite.yml: rule ready_gate / content_verdict (one row
-- per criterion, weight NULL) or composite_weight (weight of the criterion).
select
    cast(suite as varchar)           as suite,
    cast(rubric_id as varchar)       as rubric_id,
    cast(rule as varchar)            as rule,
    cast(criterion as varchar)       as criterion,
    cast(weight as decimal(18, 6))   as weight
from {{ read_source('suites', 'rubric_rules') }}
