-- The project-level GRADE weights (seed grade_dimension_weights) as one row, one column per dimension.
select
{%- for d in ['grounding_accuracy', 'insight_quality', 'evidence_linkage', 'calibration_limitation_handling', 'consistency', 'structure_usability'] %}
    max(case when dimension = '{{ d }}' then cast(weight as decimal(18, 12)) end) as w_{{ d }}{{ ',' if not loop.last }}
{%- endfor %}
from {{ ref('grade_dimension_weights') }}
