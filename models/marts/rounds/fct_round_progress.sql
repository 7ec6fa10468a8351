-- One row per round x reply: how many of its N readers have read it (a complete reading under the round's rubric
-- version by the packet's rater now) and who is still to read it.
with rounds as (
    select * from {{ ref('int_rounds') }}
),

responses as (
    select * from {{ ref('dim_responses') }}
),

reader_status as (
    select * from {{ ref('fct_round_reader_status') }}
),

per_reply as (
    select
        round_id,
        response_id,
        item_id,
        cast(count(*) as integer)                                     as readers_assigned,
        cast(sum(case when is_read then 1 else 0 end) as integer)     as readers_done,
        {{ string_agg_ordered("case when not is_read then rater_id end", "rater_id", ", ") }} as readers_waiting
    from reader_status
    group by round_id, response_id, item_id
)

select
    per_reply.round_id,
    rounds.suite,
    per_reply.response_id,
    per_reply.item_id,
    responses.system_id,
    rounds.readers_per_reply                                          as readers_required,
    per_reply.readers_assigned,
    per_reply.readers_done,
    cast(per_reply.readers_done as varchar) || ' of ' || cast(rounds.readers_per_reply as varchar) as progress,
    case
        when per_reply.readers_done >= rounds.readers_per_reply then 'complete'
        when per_reply.readers_done = 0 then 'not_started'
        else 'in_progress'
    end                                                               as status,
    per_reply.readers_waiting,
    case
        when per_reply.readers_done >= rounds.readers_per_reply then null
        when per_reply.readers_waiting is not null then 'waiting for ' || per_reply.readers_waiting
        else 'fewer readers assigned than required'
    end                                                               as status_reason,
    rounds.due_date
from per_reply
inner join rounds on rounds.round_id = per_reply.round_id
left join responses on responses.response_id = per_reply.response_id
