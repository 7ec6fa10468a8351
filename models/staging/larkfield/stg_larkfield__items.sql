-- One row per Larkfield test ticket (items of the shared data model).
with keys as (
    select * from {{ ref('larkfield_answer_keys') }}
),

tickets as (
    select * from {{ ref('larkfield_tickets') }}
)

select
    'larkfield'                         as suite,
    cast(keys.ticket_id as varchar)     as item_id,
    cast(null as varchar)               as task,
    cast(keys.language as varchar)      as language,
    cast(keys.category as varchar)      as category,
    cast(tickets.ticket_text as varchar) as input_text,
    cast(keys.key_summary as varchar)   as reference_text
from keys
left join tickets on tickets.ticket_id = keys.ticket_id
