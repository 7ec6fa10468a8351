-- Each comparison mart has exactly one row per its grain (returns the duplicated keys; must be empty).
select 'card_outcomes' as mart, experiment_id || '|' || group_id || '|' || case_id as grain_key, count(*) as n
from {{ ref('fct_decisions__card_outcomes') }} group by 1, 2 having count(*) > 1
union all
select 'group_comparison', experiment_id || '|' || group_id, count(*)
from {{ ref('fct_decisions__group_comparison') }} group by 1, 2 having count(*) > 1
union all
select 'financial_verdicts', experiment_id || '|' || group_id || '|' || cast(card_position as varchar) || '|' || field_name,
       count(*)
from {{ ref('fct_decisions__financial_verdicts') }} group by 1, 2 having count(*) > 1
union all
select 'pnl_recomputed', case_id || '|' || field_name, count(*)
from {{ ref('fct_decisions__pnl_recomputed') }} group by 1, 2 having count(*) > 1
union all
select 'quality_review', review_code || '|' || dimension, count(*)
from {{ ref('fct_decisions__quality_review') }} group by 1, 2 having count(*) > 1
