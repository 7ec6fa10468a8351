{{ config(materialized='table') }}
-- GRADE tasks with their validated per-task rubric weights and their gold-check counts.
with facts as (
    select item_id, count(*) as n_gold_facts from {{ ref('stg_grade__gold_facts') }} group by item_id
),
insights as (
    select item_id, count(*) as n_gold_insights from {{ ref('stg_grade__gold_insights') }} group by item_id
),
limits as (
    select item_id, count(*) as n_required_limitations from {{ ref('stg_grade__required_limitations') }} group by item_id
),
claims as (
    select item_id, count(*) as n_forbidden_claims from {{ ref('stg_grade__forbidden_claims') }} group by item_id
)

select
    t.pack_id,
    t.task_id,
    t.track,
    t.title,
    t.prompt,
    t.pack_title,
    t.is_synthetic,
    {%- for d in grade_dimensions() %}
    t.w_{{ d }},
    {%- endfor %}
    coalesce(facts.n_gold_facts, 0)                 as n_gold_facts,
    coalesce(insights.n_gold_insights, 0)           as n_gold_insights,
    coalesce(limits.n_required_limitations, 0)      as n_required_limitations,
    coalesce(claims.n_forbidden_claims, 0)          as n_forbidden_claims
from {{ ref('int_grade__tasks') }} as t
left join facts on facts.item_id = t.item_id
left join insights on insights.item_id = t.item_id
left join limits on limits.item_id = t.item_id
left join claims on claims.item_id = t.item_id
