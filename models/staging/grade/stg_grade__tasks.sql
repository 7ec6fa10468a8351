-- One row per GRADE task (tasks.csv); track is 1-5 (checked by tests), NULL when not a whole number.
select
    pack_id,
    task_id,
    pack_id || '/' || task_id        as item_id,
    try_cast(track as integer)       as track,
    track                            as track_text,
    title,
    prompt,
    filename                         as source_file
from {{ read_source('grade', 'tasks') }}
