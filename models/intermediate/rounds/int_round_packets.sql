-- One row per round x packet: the packet's rater now (its latest assignment event) and how often it moved.
with events as (
    select * from {{ ref('stg_rounds_store__assignment_events') }}
),

ranked as (
    select
        events.*,
        row_number() over (
            partition by events.round_id, events.packet_id
            order by events.acted_at desc nulls last, events.source_file desc, events.event_row desc
        ) as event_rank,
        count(*) over (partition by events.round_id, events.packet_id) as n_events
    from events
)

select
    round_id,
    packet_id,
    item_id,
    reader_slot,
    rater_id,
    cast(n_events - 1 as integer) as n_reassignments,
    acted_at                      as assigned_at
from ranked
where event_rank = 1
