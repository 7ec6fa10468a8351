-- GRADE tasks as items of the shared data model (item_id = pack_id/task_id).
select
    'grade'                         as suite,
    item_id,
    task_id                         as task,
    'en'                            as language,
    'track ' || track_text          as category,
    prompt                          as input_text,
    cast(null as varchar)           as reference_text
from {{ ref('stg_grade__tasks') }}
