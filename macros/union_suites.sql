{#-
  union_suites(model_suffix, columns, optional_columns={})
  The shared data model's table `model_suffix` across every suite: the suites declared as folders
  (stg_suites__<model_suffix>, all of them in one model) and the suites still mapped by hand-written staging models
  (stg_<suite>__<model_suffix> for each suite in var('rubric_suites')). `columns` are selected in order from both;
  `optional_columns` (name -> SQL type) come from the declared suites and are NULL for the hand-mapped ones.
-#}
{% macro union_suites(model_suffix, columns, optional_columns={}) -%}
select {{ (columns + (optional_columns.keys() | list)) | join(', ') }}
from {{ ref('stg_suites__' ~ model_suffix) }}
  {%- for suite in var('rubric_suites', []) %}
union all
select {{ columns | join(', ') }}
    {%- for name, type in optional_columns.items() %}, cast(null as {{ type }}) as {{ name }}{% endfor %}
from {{ ref('stg_' ~ suite ~ '__' ~ model_suffix) }}
  {%- endfor %}
{%- endmacro %}
