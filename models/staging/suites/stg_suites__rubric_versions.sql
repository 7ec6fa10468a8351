-- Rubric versions of every suite declared as a folder: effective date, changed criteria, change note.
select
    cast(suite as string)             as suite,
    cast(rubric_id as string)         as rubric_id,
    cast(rubric_version as integer)    as rubric_version,
    cast(effective_from as date)       as effective_from,
    cast(changed_criteria as string)  as changed_criteria,
    cast(change_note as string)       as change_note
from {{ read_source('suites', 'rubric_versions') }}
