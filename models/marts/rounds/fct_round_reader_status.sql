-- One row per round x reply x reader assigned to it now: has that reader read it (a complete reading under the
-- round's rubric version, by a human rater: fct_reply_scores.score_status = 'complete').
with rounds as (
    select * from {{ ref('int_rounds') }}
),

replies as (
    select * from {{ ref('int_round_replies') }}
),

complete as (
    select response_id, rater_id, rubric_id, rubric_version
    from {{ ref('fct_reply_scores') }}
    where score_status = 'complete' and rater_kind = 'human'
)

select
    replies.round_id,
    replies.response_id,
    replies.item_id,
    replies.rater_id,
    replies.packet_id,
    complete.response_id is not null as is_read
from replies
inner join rounds on rounds.round_id = replies.round_id
left join complete
    on complete.response_id = replies.response_id
   and complete.rater_id = replies.rater_id
   and complete.rubric_id = rounds.rubric_id
   and complete.rubric_version = rounds.rubric_version
