create or replace view evalhouse.stg_grade__task_weights
  
  
  as
    -- Per-task rubric weights over the six GRADE dimensions (task_weights.csv), one row per task x dimension.
-- weight is DECIMAL(18,12) (exact sums); NULL when the cell is not a number (the weights test then rejects the task).
with raw as (
    select *, row_number() over (partition by filename order by (select null)) as source_row
    from (
    select cast(`pack_id` as string) as `pack_id`, cast(`task_id` as string) as `task_id`, cast(`dimension` as string) as `dimension`, cast(`weight` as string) as `weight`,
      'data/grade/packs/edu_example/task_weights.csv' as filename
    from evalhouse.evalhouse_src_1d9b04282d9616beab915c9bec63efba_1
    
)
)

select
    pack_id,
    task_id,
    dimension,
    weight                                          as weight_text,
    try_cast(weight as decimal(18, 12))             as weight,
    filename                                        as source_file,
    cast(source_row as integer)                     as source_row
from raw
