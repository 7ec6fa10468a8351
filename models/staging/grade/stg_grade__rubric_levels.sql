-- The GRADE judge rubric (data/grade/judge_rubric_levels.csv: evidence_linkage, structure_usability; levels 0-4).
select
    'grade'                                     as suite,
    rubric_id,
    cast(rubric_version as integer)             as rubric_version,
    criterion,
    cast(criterion_order as integer)            as criterion_order,
    cast(min_score as integer)                  as min_score,
    cast(max_score as integer)                  as max_score,
    cast(level as integer)                      as level,
    anchor
from {{ read_source('grade', 'judge_rubric_levels') }}
