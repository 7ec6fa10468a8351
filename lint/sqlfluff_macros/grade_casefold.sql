{#- Lint only (.sqlfluff load_macros_from_path; adapter.dispatch in lint/sqlfluff_dbt takes lint__ first): the
  generated case folding of macros/grade_casefold.sql nests 183 replace() calls, deeper than sqlfluff's parser goes;
  the lint sees the same expression with one replace(). -#}
{% macro lint__grade_casefold(expr) -%}
  case when regexp_matches(lower({{ expr }}), '[ß]') then replace(lower({{ expr }}), 'ß', 'ss') else lower({{ expr }}) end
{%- endmacro %}
