-- Judge ratings of GRADE responses (judge_ratings.csv) as ratings of kind judge.
-- rater_id = '<judge_model>@<prompt_version>'; judge_model and prompt_version are also kept as columns.
with raw as (
    select *, row_number() over (partition by filename order by (select null)) as source_row
    from {{ read_source('grade', 'judge_ratings') }}
)

select
    'grade'                                                         as suite,
    filename                                                        as source_file,
    cast(source_row as integer)                                     as source_row,
    'grade-' || pack_id || '-' || task_id || '-' || {{ short_hash('model') }} || '-r' || run   as response_id,
    judge_model || '@' || prompt_version                            as rater_id,
    'judge'                                                         as rater_kind,
    criterion,
    score                                                           as score_text,
    reason,
    rubric_id,
    try_cast(rubric_version as integer)                             as rubric_version,
    false                                                           as is_blind,
    try_cast(rated_at as timestamp)                                 as rated_at,
    judge_model,
    prompt_version
from raw
