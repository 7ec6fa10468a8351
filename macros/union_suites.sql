{#-
  union_suites(model_suffix, columns, optional_columns={})
  The shared data model's table `model_suffix` across every suite: the suites declared as folders
  (stg_suites__<model_suffix>, all of them in one model) and the suites mapped by their own staging models, listed in
  var('rubric_suites') as a mapping suite -> the shared tables it provides (stg_<suite>__<table> for each). A suite
  that does not list `model_suffix` is skipped, so no suite needs an empty placeholder model. (A plain list of suite
  names means each provides every table.) `columns` are selected in order from all; `optional_columns`
  (name -> SQL type) come from the declared suites and are NULL for the mapped ones.
-#}
{% macro union_suites(model_suffix, columns, optional_columns={}) -%}
{%- set mapped = var('rubric_suites', {}) -%}
select {{ (columns + (optional_columns.keys() | list)) | join(', ') }}
from {{ ref('stg_suites__' ~ model_suffix) }}
  {%- for suite in mapped if (mapped is not mapping or model_suffix in mapped[suite]) %}
union all
select {{ columns | join(', ') }}
    {%- for name, type in optional_columns.items() %}, cast(null as {{ type }}) as {{ name }}{% endfor %}
from {{ ref('stg_' ~ suite ~ '__' ~ model_suffix) }}
  {%- endfor %}
{%- endmacro %}
