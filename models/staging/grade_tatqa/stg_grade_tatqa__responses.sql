-- One response per configuration x question (greedy, one repetition); raw_output = the model's generation.
select
    'grade_tatqa'           as suite,
    response_id,
    question_id             as item_id,
    config                  as system_id,
    1                       as repetition,
    generated               as response_text,
    generated               as raw_output,
    false                   as is_reference_system
from {{ ref('stg_grade_tatqa__predictions') }}
