-- HANNA rubric versions: one version each, as released by the authors (no effective date is published).
select distinct
    'hanna'                                     as suite,
    cast(rubric_id as varchar)                  as rubric_id,
    cast(rubric_version as integer)             as rubric_version,
    cast(null as date)                          as effective_from,
    cast(null as varchar)                       as changed_criteria,
    'as released by the HANNA authors'          as change_note
from {{ ref('hanna_rubric_levels') }}
