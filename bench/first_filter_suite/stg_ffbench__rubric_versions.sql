select 'ffbench' as suite, rubric_id, rubric_version, effective_from, changed_criteria, change_note
from {{ ref('stg_larkfield__rubric_versions') }} where false
