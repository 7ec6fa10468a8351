-- GRADE pack responses in the shared data model: system_id = model, repetition = run.
-- raw_output = the recorded raw text of the response (the pack stores no other raw form).
select
    'grade'                         as suite,
    response_id,
    item_id,
    model                           as system_id,
    run                             as repetition,
    raw_text                        as response_text,
    raw_text                        as raw_output,
    false                           as is_reference_system
from {{ ref('base_grade__pack_responses') }}
