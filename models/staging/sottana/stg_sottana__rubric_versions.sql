-- Sottana rubric versions: one version per task rubric, as used in the study (no effective date published).
select distinct
    'sottana'                                   as suite,
    cast(rubric_id as varchar)                  as rubric_id,
    cast(rubric_version as integer)             as rubric_version,
    cast(null as date)                          as effective_from,
    cast(null as varchar)                       as changed_criteria,
    'as used by Sottana et al. (EMNLP 2023)'    as change_note
from {{ ref('sottana_rubric_levels') }}
