-- GRADE tasks (tasks.csv) as items of the shared data model (item_id = pack_id/task_id).
select
    'grade'                             as suite,
    pack_id || '/' || task_id           as item_id,
    task_id                             as task,
    'en'                                as language,
    'track ' || track                   as category,
    prompt                              as input_text,
    cast(null as varchar)               as reference_text
from {{ read_source('grade', 'tasks') }}
