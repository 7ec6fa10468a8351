{#-
  union_suites(model_suffix, columns, suites_var='rubric_suites')
  Unions stg_<suite>__<model_suffix> for every suite listed in var(suites_var), selecting the
  shared data model's columns in a fixed order, so intermediate models never copy per-suite logic.
  Adding a suite = listing it in dbt_project.yml and providing its staging models.
-#}
{% macro union_suites(model_suffix, columns, suites_var='rubric_suites') -%}
  {%- set suites = var(suites_var) -%}
  {%- for suite in suites %}
select {{ columns | join(', ') }}
from {{ ref('stg_' ~ suite ~ '__' ~ model_suffix) }}
    {%- if not loop.last %}
union all
    {%- endif %}
  {%- endfor %}
{%- endmacro %}
