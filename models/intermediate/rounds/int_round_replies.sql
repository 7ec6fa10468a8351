-- One row per round x packet x reply: which reply each packet shows under which letter (the round's blind key,
-- export_id = round_id), its shown position (A = 1) and the packet's rater now.
with packets as (
    select * from {{ ref('int_round_packets') }}
),

keys as (
    select * from {{ ref('stg_ratings_store__blind_keys') }}
)

select
    packets.round_id,
    packets.packet_id,
    packets.item_id,
    packets.reader_slot,
    packets.rater_id,
    keys.response_id,
    keys.letter,
    cast(row_number() over (
        partition by packets.round_id, packets.packet_id order by length(keys.letter), keys.letter
    ) as integer) as shown_position
from packets
inner join keys
    on keys.export_id = packets.round_id
   and keys.packet_id = packets.packet_id
