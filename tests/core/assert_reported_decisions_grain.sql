-- The reported-decision models have one row per their grain (returns the duplicated keys; must be empty).
select 'int_reported_decisions' as model,
       suite || '|' || response_id || '|' || rater_id || '|' || rubric_id || '|' || cast(rubric_version as varchar) as grain_key,
       count(*) as n
from {{ ref('int_reported_decisions') }} group by 1, 2 having count(*) > 1
union all
select 'fct_reported_decisions',
       suite || '|' || response_id || '|' || rater_id || '|' || rubric_id || '|' || cast(rubric_version as varchar),
       count(*)
from {{ ref('fct_reported_decisions') }} group by 1, 2 having count(*) > 1
union all
select 'fct_reported_decision_summary',
       suite || '|' || rater_id || '|' || rubric_id || '|' || cast(rubric_version as varchar), count(*)
from {{ ref('fct_reported_decision_summary') }} group by 1, 2 having count(*) > 1
