{#-
  union_suites(model_suffix, columns)
  The shared data model's table `model_suffix` across every suite: `evalhouse suite land` stacks every suite folder's
  rows (data files, or GRADE packs converted from pack_dir) into one landing file per table, so this selects
  `columns`, in order, from stg_suites__<model_suffix>.
-#}
{% macro union_suites(model_suffix, columns) -%}
select {{ columns | join(', ') }}
from {{ ref('stg_suites__' ~ model_suffix) }}
{%- endmacro %}
