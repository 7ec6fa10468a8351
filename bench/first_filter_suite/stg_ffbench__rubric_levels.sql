select 'ffbench' as suite, rubric_id, rubric_version, criterion, criterion_order, min_score, max_score, level, anchor
from {{ ref('stg_larkfield__rubric_levels') }} where false
