{#-
  grade_weights_sum_to_one: GRADE rubric weights must be complete and sum to 1 within 1e-6 (methodology: "tasks
  whose weights do not sum to 1.0 (within 1e-6) are rejected before any scoring occurs").
  One group per value of group_by (e.g. pack_id, task_id; none = the whole table). A group is rejected when its
  weights (DECIMAL, summed exactly) differ from 1 by more than 1e-6, or a weight is missing / not a number /
  negative, or the six dimensions are not each present exactly once.
  The test does not fail quietly: when a group is rejected the query raises an error whose message names every
  rejected group (e.g. "edu_example/t1_x: weights sum to 0.999000000000 (|sum - 1| > 1e-6)"), so `dbt build`
  stops, names the task, and skips every scoring model downstream.
-#}
{% test grade_weights_sum_to_one(model, group_by=[], weight_column='weight', dimension_column='dimension') %}
{%- set dims = ['grounding_accuracy', 'insight_quality', 'evidence_linkage', 'calibration_limitation_handling',
                'consistency', 'structure_usability'] -%}
{%- set key = (group_by | join(" || '/' || ")) if group_by else "'project'" -%}
with weights as (
    select {{ key }} as weight_group, {{ dimension_column }} as dimension,
           cast({{ weight_column }} as decimal(18, 12)) as weight
    from {{ model }}
),

groups as (
    select
        weight_group,
        sum(weight)                                                         as weight_sum,
        count(*)                                                            as n_rows,
        count(distinct dimension)                                           as n_dimensions,
        sum(case when weight is null then 1 else 0 end)                     as n_missing,
        sum(case when weight < 0 then 1 else 0 end)                         as n_negative,
        sum(case when dimension not in ('{{ dims | join("', '") }}') or dimension is null then 1 else 0 end) as n_unknown
    from weights
    group by weight_group
),

rejected as (
    select
        weight_group,
        weight_sum,
        case
            when n_missing > 0 then 'a weight is missing or not a number'
            when n_unknown > 0 then 'unknown dimension (expected {{ dims | join(", ") }})'
            when n_rows <> 6 or n_dimensions <> 6 then 'expected the 6 dimensions once each, found ' || cast(n_rows as string) || ' rows'
            when n_negative > 0 then 'a weight is negative'
            when abs(weight_sum - cast(1 as decimal(18, 12))) > cast(0.000001 as decimal(18, 12))
                then 'weights sum to ' || cast(weight_sum as string) || ' (|sum - 1| > 1e-6)'
        end as problem
    from groups
),

failures as (
    select weight_group, weight_sum, problem from rejected where problem is not null
),

message as (
    select 'GRADE rubric weights rejected before scoring: '
           || {{ string_agg_ordered("weight_group || ': ' || problem", "weight_group || ': ' || problem", '; ') }} as msg
    from failures
    having count(*) > 0
)

select failures.weight_group, failures.weight_sum, failures.problem, {{ raise_query_error('message.msg') }} as raised
from failures
cross join message
{% endtest %}
