-- One response per configuration x question (greedy, one repetition); raw_output = the model's completion.
select
    'grade_gsm8k'           as suite,
    response_id,
    question_id             as item_id,
    config                  as system_id,
    1                       as repetition,
    completion              as response_text,
    completion              as raw_output,
    false                   as is_reference_system
from {{ ref('stg_grade_gsm8k__predictions') }}
