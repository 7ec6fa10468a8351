-- One row per round x reply x measure where the round's readers gave different values: the list for
-- adjudication, with the adjudicator's rating when there is one (a new rating, rater_kind adjudicator).
with readings as (
    select * from {{ ref('fct_round_readings') }}
),

rounds as (
    select * from {{ ref('int_rounds') }}
),

adjudicated_criteria as (
    select response_id, rubric_id, rubric_version, criterion as measure, rater_id,
           cast(score as varchar) as value
    from {{ ref('fct_criterion_scores') }}
    where rater_kind = 'adjudicator' and score_status = 'scored'
),

adjudicated_ready as (
    select response_id, rubric_id, rubric_version, 'ready' as measure, rater_id,
           case when ready then 'true' else 'false' end as value
    from {{ ref('fct_reply_scores') }}
    where rater_kind = 'adjudicator' and score_status = 'complete' and ready is not null
),

adjudications as (
    select
        response_id, rubric_id, rubric_version, measure,
        {{ string_agg_ordered("rater_id || '=' || value", "rater_id", "; ") }} as adjudication
    from (
        select * from adjudicated_criteria
        union all
        select * from adjudicated_ready
    ) as a
    group by response_id, rubric_id, rubric_version, measure
),

per_reply as (
    select
        round_id,
        response_id,
        measure,
        min(measure_order)                                               as measure_order,
        cast(count(*) as integer)                                        as n_readers,
        cast(count(distinct value) as integer)                           as n_distinct_values,
        {{ string_agg_ordered("rater_id || '=' || value", "rater_id", "; ") }} as readings
    from readings
    group by round_id, response_id, measure
)

select
    per_reply.round_id,
    rounds.suite,
    per_reply.response_id,
    per_reply.measure,
    per_reply.measure_order,
    per_reply.n_readers,
    per_reply.n_distinct_values,
    per_reply.readings,
    adjudications.adjudication is not null as is_adjudicated,
    adjudications.adjudication
from per_reply
inner join rounds on rounds.round_id = per_reply.round_id
left join adjudications
    on adjudications.response_id = per_reply.response_id
   and adjudications.rubric_id = rounds.rubric_id
   and adjudications.rubric_version = rounds.rubric_version
   and adjudications.measure = per_reply.measure
where per_reply.n_distinct_values > 1
