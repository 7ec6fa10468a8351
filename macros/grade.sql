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
{#- Spark's string literals read a backslash as an escape ('\.' is '.', so "3:50" was one token): doubled here. -#}
{% macro default__grade_number_tokens(expr) -%}
regexp_extract_all({{ expr }}, '{{ grade_number_pattern() | replace("\\", "\\\\") }}', 2)
{%- endmacro %}
{% macro duckdb__grade_number_tokens(expr) -%}
regexp_extract_all({{ expr }}, '{{ grade_number_pattern() }}', 2)
{%- endmacro %}


{#- grade_parse_number(token): DECIMAL(38,18) value of a number token (',', currency signs, '%', spaces dropped,
    U+2212 read as '-'); NULL when it does not parse or does not fit (|x| >= 1e20). -#}
{#- Speed: DuckDB 1.5 casts VARCHAR to a DECIMAL wider than 18 digits ~100x slower than to DECIMAL(18,6), so
    plain values (<= 12 integer digits, <= 6 decimals, no exponent) take the exact DECIMAL(18,6) path first. -#}
{% macro grade_parse_number(token) -%}
{%- set clean = "replace(replace(replace(replace(replace(replace(replace(" ~ token ~ ", ',', ''), '$', ''), '€', ''), '£', ''), '%', ''), ' ', ''), '−', '-')" -%}
case when {{ regex_contains(clean, "'^-?[0-9]{1,12}([.][0-9]{1,6})?$'") }}
     then cast(cast({{ clean }} as decimal(18, 6)) as decimal(38, 18))
     else try_cast({{ clean }} as decimal(38, 18)) end
{%- endmacro %}


{#- grade_tolerance(abs_tol, rel_tol, gold): abs_tol + rel_tol * |gold| as DECIMAL(38,18) (abs_tol DECIMAL(38,18), rel_tol
    DECIMAL(18,9), gold DECIMAL(38,18)). Spark, at 38 digits, cuts a product's scale to 6 and a sum's to 17: there
    rel_tol < 10 and |gold| < 1e15 take narrower types whose product (scale 21) and sum fit exactly; other values
    the plain expression. -#}
{% macro grade_tolerance(abs_tol, rel_tol, gold) -%}
  {{ return(adapter.dispatch('grade_tolerance', 'evalhouse')(abs_tol, rel_tol, gold)) }}
{%- endmacro %}
{% macro default__grade_tolerance(abs_tol, rel_tol, gold) -%}
case when abs({{ rel_tol }}) < 10 and abs({{ gold }}) < 1000000000000000
     then {{ decimal_38_18_add(abs_tol, '+', 'cast(cast(' ~ rel_tol ~ ' as decimal(10, 9)) * cast(abs(' ~ gold ~ ') as decimal(27, 12)) as decimal(38, 18))') }}
     else cast({{ abs_tol }} + cast({{ rel_tol }} * cast(abs({{ gold }}) as decimal(38, 12)) as decimal(38, 18)) as decimal(38, 18))
end
{%- endmacro %}
{% macro duckdb__grade_tolerance(abs_tol, rel_tol, gold) -%}
cast({{ abs_tol }}
     + cast({{ rel_tol }} * cast(abs({{ gold }}) as decimal(38, 12)) as decimal(38, 18))
     as decimal(38, 18))
{%- endmacro %}


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


{#- grade_has_letter(expr): true when the text holds a Unicode letter (\pL); Spark's literals need the backslash
    doubled. -#}
{% macro grade_has_letter(expr) -%}
  {{ return(adapter.dispatch('grade_has_letter', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__grade_has_letter(expr) -%}
({{ expr }} rlike '\\p{L}')
{%- endmacro %}
{% macro duckdb__grade_has_letter(expr) -%}
regexp_matches({{ expr }}, '\pL')
{%- endmacro %}


{#- grade_consistency_mask_words(): BIGINT words of 62 bits that fct_grade__consistency's greedy finding clustering
    keeps its unique findings in: 4 words = at most 248 top-3 key findings per task x run (82 runs of 3). -#}
{% macro grade_consistency_mask_words() -%}
  {{ return(4) }}
{%- endmacro %}
