{#-
  JSON validity flags of a raw model output (the first filter). Each returns a BOOLEAN expression, false for a
  text that does not qualify; the caller sets the flags NULL when the raw output is not recorded.
  They reproduce evalhouse.text.checks.json_flags (Python's json.loads with NaN/Infinity rejected), tested against it.
-#}

{#- json_strict(x): the whole text (surrounding whitespace allowed) is one RFC 8259 JSON value. -#}
{% macro json_strict(x) -%}
  {{ return(adapter.dispatch('json_strict', 'evalhouse')(x)) }}
{%- endmacro %}
{% macro default__json_strict(x) -%}
  {#- raised when the model runs, not while dbt parses (the duckdb_only models that call it are parsed on every target) -#}
  {%- if execute %}{{ exceptions.raise_compiler_error("json_strict is not implemented for adapter " ~ adapter.type()) }}{% endif -%}
{%- endmacro %}
{#- DuckDB's json_valid accepts trailing commas and NaN / Infinity (any case) and rejects unpaired surrogate escapes
    ("\ud800"), which json.loads accepts. So: escapes of surrogates are replaced before json_valid, and outside
    strings (each string literal replaced by 0) no comma may precede a closing bracket and no letter may remain once
    true / false / null and exponents are removed. -#}
{% macro duckdb__json_strict(x) -%}
coalesce(
    json_valid(regexp_replace({{ x }}, '\\u[dD][89abAB][0-9a-fA-F]{2}', '\\u0041', 'g'))
    and not regexp_matches(
        regexp_replace(regexp_replace(regexp_replace({{ x }}, '"(?:[^"\\]|\\.)*"', '0', 'g'),
                                      '[0-9][eE]', '0', 'g'), 'true|false|null', '', 'g'),
        ',[ \t\n\r]*[\]}]|[A-Za-z]'),
    false)
{%- endmacro %}

{#- Python's \s (str.isspace) as an RE2 class. -#}
{% macro _py_space_class() -%}
[\t\n\x{0b}\x{0c}\r\x{1c}-\x{1f} \x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]
{%- endmacro %}

{#- json_fenced(x): the whole text is one Markdown fence tagged json or untagged, whose body is strict JSON. -#}
{% macro json_fenced(x) -%}
  {{ return(adapter.dispatch('json_fenced', 'evalhouse')(x)) }}
{%- endmacro %}
{% macro default__json_fenced(x) -%}
  {#- raised when the model runs, not while dbt parses (the duckdb_only models that call it are parsed on every target) -#}
  {%- if execute %}{{ exceptions.raise_compiler_error("json_fenced is not implemented for adapter " ~ adapter.type()) }}{% endif -%}
{%- endmacro %}
{% macro duckdb__json_fenced(x) -%}
{%- set ws = _py_space_class() -%}
{%- set fence = "(?s)^" ~ ws ~ "*```[ \\t]*([A-Za-z0-9_+-]*)[ \\t]*\\n(.*?)\\n?[ \\t]*```" ~ ws ~ "*$" -%}
{%- set body = "regexp_extract(" ~ x ~ ", '" ~ fence ~ "', 2)" -%}
coalesce(
    regexp_matches({{ x }}, '{{ fence }}')
    and lower(regexp_extract({{ x }}, '{{ fence }}', 1)) in ('', 'json')
    and not contains({{ body }}, '```')
    and {{ json_strict(body) }},
    false)
{%- endmacro %}

{#- json_extractable(x, strict): json_strict (pass `strict`, an already computed json_strict of x, to reuse it), or
    some json-tagged or untagged fenced block of the text is strict JSON. -#}
{% macro json_extractable(x, strict=none) -%}
  {{ return(adapter.dispatch('json_extractable', 'evalhouse')(x, strict)) }}
{%- endmacro %}
{% macro default__json_extractable(x, strict=none) -%}
  {#- raised when the model runs, not while dbt parses (the duckdb_only models that call it are parsed on every target) -#}
  {%- if execute %}{{ exceptions.raise_compiler_error("json_extractable is not implemented for adapter " ~ adapter.type()) }}{% endif -%}
{%- endmacro %}
{% macro duckdb__json_extractable(x, strict=none) -%}
{%- set ws = _py_space_class() -%}
{%- set block = "(?s)```([^\\n`]*)\\n(.*?)```" -%}
{%- set body = "regexp_extract_all(" ~ x ~ ", '" ~ block ~ "', 2)[block_no]" -%}
coalesce(
    {{ strict if strict is not none else json_strict(x) }}
    or (contains({{ x }}, '```') and len(list_filter(
        regexp_extract_all({{ x }}, '{{ block }}', 1),
        (tag, block_no) -> lower(regexp_replace(tag, '^{{ ws }}+|{{ ws }}+$', '', 'g')) in ('', 'json')
                           and {{ json_strict(body) }})) > 0),
    false)
{%- endmacro %}
