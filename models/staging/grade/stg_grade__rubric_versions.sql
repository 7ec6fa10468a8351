-- Versions of the GRADE judge rubric (data/grade/judge_rubric_versions.csv).
select
    'grade'                             as suite,
    rubric_id,
    cast(rubric_version as integer)     as rubric_version,
    cast(effective_from as date)        as effective_from,
    changed_criteria,
    change_note
from {{ read_source('grade', 'judge_rubric_versions') }}
