-- Per-task rubric weights over the six GRADE dimensions (task_weights.csv), one row per task x dimension.
-- weight is DECIMAL(18,12) (exact sums); NULL when the cell is not a number (the weights test then rejects the task).
with raw as (
    select *, row_number() over (partition by filename order by (select null)) as source_row
    from {{ read_source('grade', 'task_weights') }}
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
