-- Every assignment event of every round, typed: 'assign' (round created) and 'reassign' (a lead's explicit move,
-- with from_rater_id and reason).
select
    cast(round_id as varchar)                            as round_id,
    cast(packet_id as varchar)                           as packet_id,
    cast(item_id as varchar)                             as item_id,
    try_cast(reader_slot as integer)                     as reader_slot,
    cast(rater_id as varchar)                            as rater_id,
    cast(action as varchar)                              as action,
    cast(nullif(from_rater_id, '') as varchar)           as from_rater_id,
    cast(nullif(reason, '') as varchar)                  as reason,
    cast(acted_by as varchar)                            as acted_by,
    try_cast(replace(replace(acted_at, 'T', ' '), 'Z', '') as timestamp) as acted_at,
    cast(filename as varchar)                            as source_file,
    try_cast(event_row as integer)                       as event_row
from {{ read_source('rounds_store', 'assignments') }}
where nullif(round_id, '') is not null
