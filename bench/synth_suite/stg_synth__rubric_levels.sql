-- The synthetic suite reuses Larkfield's rubric shape under its own id.
select 'synth' as suite, 'synth_support' as rubric_id, rubric_version, criterion, criterion_order, min_score,
       max_score, level, anchor
from {{ ref('stg_larkfield__rubric_levels') }}
