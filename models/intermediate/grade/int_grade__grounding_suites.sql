-- The suites whose numeric / string facts are checked by fct_grade__fact_checks: the declared suites with
-- grounding: true in suite.yml and the hand-mapped suites in var('grade_grounding_suites').
{%- set mapped = var('grade_grounding_suites', []) %}
select suite
from {{ ref('stg_suites__suites') }}
where grounding
{%- for s in mapped %}
union all
select '{{ s }}' as suite
{%- endfor %}
