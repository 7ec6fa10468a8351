-- Rubric levels of every suite declared as a folder, from its suite.yml, one row per rubric x version x criterion x
-- level (a version carries the previous one's criteria over and replaces those it lists).
select
    cast(suite as string)                  as suite,
    cast(rubric_id as string)              as rubric_id,
    cast(rubric_version as integer)         as rubric_version,
    cast(criterion as string)              as criterion,
    cast(criterion_order as integer)        as criterion_order,
    cast(criterion_description as string)  as criterion_description,
    cast(min_score as integer)              as min_score,
    cast(max_score as integer)              as max_score,
    cast(direction as string)              as direction,
    cast(level as integer)                  as level,
    cast(anchor as string)                 as anchor,
    cast(example as string)                as example
from {{ read_source('suites', 'rubric_levels') }}
