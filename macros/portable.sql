{#- Engine-specific SQL lives behind adapter.dispatch so a Spark target can follow. -#}

{#- split_to_rows(col, sep): one row per non-empty piece of a separated text column, as column `piece`. -#}
{% macro split_pieces(col, sep) -%}
  {{ return(adapter.dispatch('split_pieces', 'evalhouse')(col, sep)) }}
{%- endmacro %}
{% macro default__split_pieces(col, sep) -%}
explode(split({{ col }}, '{{ sep }}'))
{%- endmacro %}
{% macro duckdb__split_pieces(col, sep) -%}
unnest(string_split({{ col }}, '{{ sep }}'))
{%- endmacro %}

{#- short_hash(expr): first 12 hex digits of md5, a stable readable id part. -#}
{% macro short_hash(expr) -%}
substr(md5({{ expr }}), 1, 12)
{%- endmacro %}

{#- string_agg_ordered(expr, order_expr, sep): the values of expr joined by sep in order_expr order. -#}
{% macro string_agg_ordered(expr, order_expr, sep) -%}
  {{ return(adapter.dispatch('string_agg_ordered', 'evalhouse')(expr, order_expr, sep)) }}
{%- endmacro %}
{% macro default__string_agg_ordered(expr, order_expr, sep) -%}
array_join(transform(array_sort(collect_list(struct({{ order_expr }}, {{ expr }}))), x -> x.col2), '{{ sep }}')
{%- endmacro %}
{% macro duckdb__string_agg_ordered(expr, order_expr, sep) -%}
string_agg({{ expr }}, '{{ sep }}' order by {{ order_expr }})
{%- endmacro %}

{#- json_text(col, key): the text value of a top-level key of a JSON object held in a text column (NULL if absent). -#}
{% macro json_text(col, key) -%}
  {{ return(adapter.dispatch('json_text', 'evalhouse')(col, key)) }}
{%- endmacro %}
{% macro default__json_text(col, key) -%}
get_json_object({{ col }}, '$.{{ key }}')
{%- endmacro %}
{% macro duckdb__json_text(col, key) -%}
json_extract_string({{ col }}, '$.{{ key }}')
{%- endmacro %}

{#- percentile_cont(expr, fraction): the interpolated percentile of expr within the group (an aggregate). -#}
{% macro percentile_cont(expr, fraction) -%}
  {{ return(adapter.dispatch('percentile_cont', 'evalhouse')(expr, fraction)) }}
{%- endmacro %}
{% macro default__percentile_cont(expr, fraction) -%}
percentile({{ expr }}, {{ fraction }})
{%- endmacro %}
{% macro duckdb__percentile_cont(expr, fraction) -%}
quantile_cont({{ expr }}, {{ fraction }})
{%- endmacro %}
