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
from (
    select cast(`pack_id` as string) as `pack_id`, cast(`task_id` as string) as `task_id`, cast(`track` as string) as `track`, cast(`title` as string) as `title`, cast(`prompt` as string) as `prompt`,
      'data/grade/packs/edu_example/tasks.csv' as filename
    from evalhouse.evalhouse_src_4773ba34ea5c5c68f76abd44ad4be2b4_1
    
)