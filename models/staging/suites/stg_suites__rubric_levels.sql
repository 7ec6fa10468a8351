-- Rubric levels of every suite declared as a folder, from its suite.yml, one row per rubric x version x criterion x
-- level (a version carries the previous one's criteria over and replaces those it lists).
select
    cast(suite as varchar)                  as suite,
    cast(rubric_id as varchar)              as rubric_id,
    cast(rubric_version as integer)         as rubric_version,
    cast(criterion as varchar)              as criterion,
    cast(criterion_order as integer)        as criterion_order,
    cast(criterion_description as varchar)  as criterion_description,
    cast(min_score as integer)              as min_score,
    cast(max_score as integer)              as max_score,
    cast(direction as varchar)              as direction,
    cast(level as integer)                  as level,
    cast(anchor as varchar)                 as anchor,
    cast(example as varchar)                as example
from {{ read_source('suites', 'rubric_levels') }}
