-- One row per round x reply x reader x measure: what each reader of the round (the packet's rater now, a human)
-- gave the reply under the round's rubric version. Measures: every criterion (its whole level) and 'ready' (the
-- rubric's decision on a complete reading, 'true' / 'false'). scale_min / scale_max: the criterion's scale from the
-- rubric (NULL for ready, whose scale is false, true). Adjudications (rater_kind adjudicator) are not readings.
with rounds as (
    select * from {{ ref('int_rounds') }}
),

replies as (
    select * from {{ ref('int_round_replies') }}
),

scores as (
    select * from {{ ref('fct_criterion_scores') }}
    where score_status = 'scored' and rater_kind = 'human'
),

reply_scores as (
    select * from {{ ref('fct_reply_scores') }}
    where score_status = 'complete' and rater_kind = 'human' and ready is not null
),

criterion_readings as (
    select
        replies.round_id,
        replies.response_id,
        replies.rater_id,
        scores.criterion                  as measure,
        cast(scores.criterion_order as integer) as measure_order,
        cast(scores.score as varchar)     as value,
        cast(scores.min_score as integer) as scale_min,
        cast(scores.max_score as integer) as scale_max
    from replies
    inner join rounds on rounds.round_id = replies.round_id
    inner join scores
        on scores.response_id = replies.response_id
       and scores.rater_id = replies.rater_id
       and scores.rubric_id = rounds.rubric_id
       and scores.rubric_version = rounds.rubric_version
),

ready_readings as (
    select
        replies.round_id,
        replies.response_id,
        replies.rater_id,
        'ready'                              as measure,
        901                                  as measure_order,
        case when reply_scores.ready then 'true' else 'false' end as value,
        cast(null as integer)                as scale_min,
        cast(null as integer)                as scale_max
    from replies
    inner join rounds on rounds.round_id = replies.round_id
    inner join reply_scores
        on reply_scores.response_id = replies.response_id
       and reply_scores.rater_id = replies.rater_id
       and reply_scores.rubric_id = rounds.rubric_id
       and reply_scores.rubric_version = rounds.rubric_version
)

select * from criterion_readings
union all
select * from ready_readings
