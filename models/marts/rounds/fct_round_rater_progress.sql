-- One row per round x rater: packets and replies assigned now, how many are read.
with reader_status as (
    select * from {{ ref('fct_round_reader_status') }}
),

per_packet as (
    select round_id, rater_id, packet_id,
           count(*) as n_replies,
           sum(case when is_read then 1 else 0 end) as n_read
    from reader_status
    group by round_id, rater_id, packet_id
)

select
    round_id,
    rater_id,
    cast(count(*) as integer)                                             as packets_assigned,
    cast(sum(case when n_read = n_replies then 1 else 0 end) as integer)  as packets_submitted,
    cast(sum(n_replies) as integer)                                       as replies_assigned,
    cast(sum(n_read) as integer)                                          as replies_done,
    cast(sum(n_replies) - sum(n_read) as integer)                         as replies_left,
    cast(cast(sum(n_read) as decimal(18, 6)) / sum(n_replies) as decimal(18, 6)) as share_done
from per_packet
group by round_id, rater_id
