-- One row per Larkfield reply (model run x ticket; the lesson has one repetition).
-- Replies come from the printed reply texts and from reference-score rows whose text the lesson does not print.
-- raw_output is NULL: the lesson prints the reply field, not the assistant's raw JSON output.
with printed as (
    select ticket_id, model_run, panel_letter, reply_text
    from {{ ref('larkfield_replies') }}
),

scored_only as (
    select ticket_id, model_run, panel_letter, cast(null as varchar) as reply_text
    from {{ ref('larkfield_reference_scores') }} as s
    where not exists (
        select 1 from printed as p
        where p.ticket_id = s.ticket_id and p.model_run = s.model_run
    )
),

all_replies as (
    select * from printed
    union all
    select * from scored_only
)

select
    'larkfield'                                              as suite,
    {{ larkfield_response_id('ticket_id', 'model_run') }}    as response_id,
    cast(ticket_id as varchar)                               as item_id,
    cast(model_run as varchar)                               as system_id,
    1                                                        as repetition,
    cast(reply_text as varchar)                              as response_text,
    cast(null as varchar)                                    as raw_output,
    false                                                    as is_reference_system,
    cast(panel_letter as varchar)                            as lesson_panel_letter
from all_replies
