-- Sottana rubric levels, one rubric per task, from the sottana_rubric_levels seed.
select
    'sottana'                           as suite,
    cast(rubric_id as varchar)          as rubric_id,
    cast(rubric_version as integer)     as rubric_version,
    cast(criterion as varchar)          as criterion,
    cast(criterion_order as integer)    as criterion_order,
    cast(min_score as integer)          as min_score,
    cast(max_score as integer)          as max_score,
    cast(level as integer)              as level,
    cast(anchor as varchar)             as anchor
from {{ ref('sottana_rubric_levels') }}
