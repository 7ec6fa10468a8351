{#- The six GRADE dimensions in results.json order. -#}
{% macro grade_dimensions() -%}
  {{ return(['grounding_accuracy', 'insight_quality', 'evidence_linkage', 'calibration_limitation_handling',
             'consistency', 'structure_usability']) }}
{%- endmacro %}

{#- grade_score(expr): a score in [0, 1] as DECIMAL(18,12) (DuckDB's avg and / return DOUBLE). -#}
{% macro grade_score(expr) -%}
cast({{ expr }} as decimal(18, 12))
{%- endmacro %}

{#- grade_composite(w, s): weighted sum sum_d w.w_<d> * s.<d> in exact DECIMAL; NULL when any dimension is NULL. -#}
{% macro grade_composite(w, s) -%}
cast(
{%- for d in grade_dimensions() %}
    {{ w }}.w_{{ d }} * {{ s }}.{{ d }}{{ ' +' if not loop.last }}
{%- endfor %}
  as decimal(18, 12))
{%- endmacro %}

{#- grade_missing_dimensions(s): comma-separated list of the dimensions that are NULL in s (NULL when none). -#}
{% macro grade_missing_dimensions(s) -%}
nullif(concat_ws(', '
{%- for d in grade_dimensions() %}, case when {{ s }}.{{ d }} is null then '{{ d }}' end{% endfor -%}
), '')
{%- endmacro %}
