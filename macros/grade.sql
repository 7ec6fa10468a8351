{#- GRADE: engine-specific SQL behind adapter.dispatch (DuckDB implementations; a Spark target adds spark__ ones).
    The number pattern is evalhouse.grade.text.NUMBER_PATTERN (kept identical; python/tests/test_grade_text.py
    checks that the two agree). -#}

{% macro grade_number_pattern() -%}
(^|[^0-9A-Za-z.])((-|−)?[$€£]?(-|−)?(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9]+)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?(?: ?%)?)
{%- endmacro %}

{#- grade_number_tokens(expr): the list of number tokens (group 2 of the pattern) in a text, in order. -#}
{% macro grade_number_tokens(expr) -%}
  {{ return(adapter.dispatch('grade_number_tokens', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__grade_number_tokens(expr) -%}
regexp_extract_all({{ expr }}, '{{ grade_number_pattern() }}', 2)
{%- endmacro %}
{% macro duckdb__grade_number_tokens(expr) -%}
regexp_extract_all({{ expr }}, '{{ grade_number_pattern() }}', 2)
{%- endmacro %}

{#- grade_list_size(list) and grade_list_element(list, i) (1-based; -1 = last). -#}
{% macro grade_list_size(expr) -%}
  {{ return(adapter.dispatch('grade_list_size', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__grade_list_size(expr) -%}size({{ expr }}){%- endmacro %}
{% macro duckdb__grade_list_size(expr) -%}len({{ expr }}){%- endmacro %}

{% macro grade_list_element(expr, i) -%}
  {{ return(adapter.dispatch('grade_list_element', 'evalhouse')(expr, i)) }}
{%- endmacro %}
{% macro default__grade_list_element(expr, i) -%}element_at({{ expr }}, {{ i }}){%- endmacro %}
{% macro duckdb__grade_list_element(expr, i) -%}list_extract({{ expr }}, {{ i }}){%- endmacro %}

{#- grade_parse_number(token): DECIMAL(38,18) value of a number token (',', currency signs, '%', spaces dropped,
    U+2212 read as '-'); NULL when it does not parse or does not fit (|x| >= 1e20). -#}
{#- Speed: DuckDB 1.5 casts VARCHAR to a DECIMAL wider than 18 digits ~100x slower than to DECIMAL(18,6), so
    plain values (<= 12 integer digits, <= 6 decimals, no exponent) take the exact DECIMAL(18,6) path first. -#}
{% macro grade_parse_number(token) -%}
{%- set clean = "replace(replace(replace(replace(replace(replace(replace(" ~ token ~ ", ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-')" -%}
case when {{ grade_regex_contains(clean, "'^-?[0-9]{1,12}([.][0-9]{1,6})?$'") }}
     then cast(cast({{ clean }} as decimal(18, 6)) as decimal(38, 18))
     else try_cast({{ clean }} as decimal(38, 18)) end
{%- endmacro %}

{#- grade_regex_contains(expr, pattern): true when the RE2/Java pattern matches somewhere in expr. -#}
{% macro grade_regex_contains(expr, pattern) -%}
  {{ return(adapter.dispatch('grade_regex_contains', 'evalhouse')(expr, pattern)) }}
{%- endmacro %}
{% macro default__grade_regex_contains(expr, pattern) -%}({{ expr }} rlike {{ pattern }}){%- endmacro %}
{% macro duckdb__grade_regex_contains(expr, pattern) -%}regexp_matches({{ expr }}, {{ pattern }}){%- endmacro %}

{#- grade_word_text(expr): casefolded text as ' word word ... ' (runs of letters/digits separated by one space,
    padded), so ' ' || term-words is a word-start match: strpos(grade_word_text(x), ' cancel') finds "Cancellations". -#}
{% macro grade_word_text(expr) -%}
  {{ return(adapter.dispatch('grade_word_text', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__grade_word_text(expr) -%}
concat(' ', trim(regexp_replace({{ grade_casefold(expr) }}, '[^\\p{L}\\p{N}]+', ' ')), ' ')
{%- endmacro %}
{% macro duckdb__grade_word_text(expr) -%}
(' ' || trim(regexp_replace({{ grade_casefold(expr) }}, '[^\pL\pN]+', ' ', 'g')) || ' ')
{%- endmacro %}

{#- grade_unnest_positions(list_col, value_alias, pos_alias): select-list fragment giving one row per list element
    with its 1-based position. -#}
{% macro grade_unnest_positions(list_col, value_alias, pos_alias) -%}
  {{ return(adapter.dispatch('grade_unnest_positions', 'evalhouse')(list_col, value_alias, pos_alias)) }}
{%- endmacro %}
{% macro default__grade_unnest_positions(list_col, value_alias, pos_alias) -%}
posexplode({{ list_col }}) as ({{ pos_alias }}_0, {{ value_alias }})
{%- endmacro %}
{% macro duckdb__grade_unnest_positions(list_col, value_alias, pos_alias) -%}
unnest({{ list_col }}) as {{ value_alias }}, generate_subscripts({{ list_col }}, 1) as {{ pos_alias }}
{%- endmacro %}

{#- grade_unnest_map(map_col, key_alias, value_alias): one row per map entry. -#}
{% macro grade_unnest_map(map_col, key_alias, value_alias) -%}
  {{ return(adapter.dispatch('grade_unnest_map', 'evalhouse')(map_col, key_alias, value_alias)) }}
{%- endmacro %}
{% macro default__grade_unnest_map(map_col, key_alias, value_alias) -%}
explode({{ map_col }}) as ({{ key_alias }}, {{ value_alias }})
{%- endmacro %}
{% macro duckdb__grade_unnest_map(map_col, key_alias, value_alias) -%}
unnest(map_keys({{ map_col }})) as {{ key_alias }}, unnest(map_values({{ map_col }})) as {{ value_alias }}
{%- endmacro %}

{#- grade_raise(message_expr): an expression that aborts the query with the message (fails the dbt test/build). -#}
{% macro grade_raise(message_expr) -%}
  {{ return(adapter.dispatch('grade_raise', 'evalhouse')(message_expr)) }}
{%- endmacro %}
{% macro default__grade_raise(message_expr) -%}raise_error({{ message_expr }}){%- endmacro %}
{% macro duckdb__grade_raise(message_expr) -%}error({{ message_expr }}){%- endmacro %}

{#- grade_materialized(): CTE hint `as {{ grade_materialized() }} (...)`: DuckDB inlines CTEs, so a column built from
    a regex and referenced several times is recomputed for every reference; MATERIALIZED computes it once. -#}
{% macro grade_materialized() -%}
  {{ return(adapter.dispatch('grade_materialized', 'evalhouse')()) }}
{%- endmacro %}
{% macro default__grade_materialized() -%}{%- endmacro %}
{% macro duckdb__grade_materialized() -%}materialized{%- endmacro %}
