-- Labels the assistant reported with each reply (needs_human, category), one row per label; empty cells are not printed.
with replies as (
    select * from {{ ref('larkfield_replies') }}
),

labels as (
    select ticket_id, model_run, 'needs_human' as label_name, lower(cast(needs_human as varchar)) as label_value
    from replies where needs_human is not null
    union all
    select ticket_id, model_run, 'category' as label_name, lower(cast(category as varchar)) as label_value
    from replies where category is not null
)

select
    'larkfield'                                           as suite,
    {{ larkfield_response_id('ticket_id', 'model_run') }} as response_id,
    label_name,
    label_value
from labels
