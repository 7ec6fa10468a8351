-- One row per rating round: its definition and where it stands.
with rounds as (
    select * from {{ ref('int_rounds') }}
),

progress as (
    select * from {{ ref('fct_round_progress') }}
),

packets as (
    select round_id, cast(sum(n_reassignments) as integer) as n_reassignments
    from {{ ref('int_round_packets') }}
    group by round_id
),

per_round as (
    select
        round_id,
        cast(count(*) as integer)                                                 as n_replies_assigned,
        cast(sum(case when status = 'complete' then 1 else 0 end) as integer)     as n_replies_complete,
        cast(sum(case when status = 'in_progress' then 1 else 0 end) as integer)  as n_replies_in_progress,
        cast(sum(case when status = 'not_started' then 1 else 0 end) as integer)  as n_replies_not_started
    from progress
    group by round_id
)

select
    rounds.round_id,
    rounds.suite,
    rounds.rubric_id,
    rounds.rubric_version,
    rounds.scope,
    rounds.scope_sample_size,
    rounds.scope_filter,
    rounds.seed,
    rounds.readers_per_reply,
    rounds.raters,
    rounds.due_date,
    rounds.lock_minutes,
    rounds.n_replies,
    rounds.n_packets,
    coalesce(per_round.n_replies_complete, 0)                                    as n_replies_complete,
    coalesce(per_round.n_replies_in_progress, 0)                                 as n_replies_in_progress,
    coalesce(per_round.n_replies_not_started, 0)                                 as n_replies_not_started,
    cast(cast(coalesce(per_round.n_replies_complete, 0) as decimal(18, 6)) / rounds.n_replies as decimal(18, 6))
                                                                                 as share_complete,
    coalesce(packets.n_reassignments, 0)                                         as n_reassignments,
    rounds.created_by,
    rounds.created_at
from rounds
left join per_round on per_round.round_id = rounds.round_id
left join packets on packets.round_id = rounds.round_id
