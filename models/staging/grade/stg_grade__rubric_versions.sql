-- Versions of the GRADE judge rubric.
select
    'grade'                             as suite,
    rubric_id,
    cast(rubric_version as integer)     as rubric_version,
    cast(effective_from as date)        as effective_from,
    changed_criteria,
    change_note
from {{ ref('grade_judge_rubric_versions') }}
