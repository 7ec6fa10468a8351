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
    ("\ud800"), which json.loads accepts. So: escapes of surrogates, high and low (D800-DFFF: replacing only the
    high one of a pair "\udbff\udc00" left its low one unpaired), are replaced before json_valid, and outside
    strings (each string literal replaced by 0) no comma may precede a closing bracket and no letter may remain once
    true / false / null (each replaced by 0, so "[1, null]" stays "[1, 0]") and exponents are removed. The CASE
    runs each step only on the rows the step before left undecided (DuckDB evaluates both sides of an AND in a
    projection, a CASE branch only on its rows): json_valid alone decides a text without '\u', without "nan" /
    "inf" in any case and without a comma before a closing bracket, since each of DuckDB's leniencies needs one of
    them (5.5-6.2 s -> 0.6-1.1 s on 1M short JSON outputs, at load 8). -#}
{% macro duckdb__json_strict(x) -%}
case
    when not coalesce(
        case
            when contains({{ x }}, '\u')
            then json_valid(regexp_replace({{ x }}, '\\u[dD][89a-fA-F][0-9a-fA-F]{2}', '\\u0041', 'g'))
            else json_valid({{ x }})
        end, false) then false
    when not regexp_matches({{ x }}, '(?i)nan|inf|,[ \t\n\r]*[\]}]') then true
    else not regexp_matches(
        regexp_replace(regexp_replace(regexp_replace({{ x }}, '"(?:[^"\\]|\\.)*"', '0', 'g'),
                                      '[0-9][eE]', '0', 'g'), 'true|false|null', '0', 'g'),
        ',[ \t\n\r]*[\]}]|[A-Za-z]')
end
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
{#- The fence, as the regular expression (?s)^ws*```[ \t]*(tag)[ \t]*\n(body, lazy)\n?[ \t]*```ws*$ reads it, in
    three anchored parts: the opening line (ws, ```, tag, newline) from the start; after it, the closing fence
    (an optional newline, spaces or tabs, ```, ws) at the end, its leftmost match as the lazy body leaves it; the
    body is what lies between. One regular expression with the lazy body captured took 3.7x longer on 400k fenced
    replies (1.1 s against 0.3 s), with the same tag and body on every one of them and on hand-written edge cases.
    Only texts with a fence are read (a CASE); each part is computed once (one-element list_transform). A text
    that is not one whole fence is not fenced JSON. -#}
coalesce(case
    when not contains({{ x }}, '```') then false
    else list_transform([regexp_extract({{ x }}, '^{{ ws }}*```[ \t]*[A-Za-z0-9_+-]*[ \t]*\n')], lambda opening:
        opening <> '' and list_transform([substring({{ x }}, length(opening) + 1)], lambda rest:
            list_transform([regexp_extract(rest, '\n?[ \t]*```{{ ws }}*$')], lambda closing:
                closing <> ''
                and lower(regexp_extract(opening, '```[ \t]*([A-Za-z0-9_+-]*)', 1)) in ('', 'json')
                and list_transform([left(rest, length(rest) - length(closing))], lambda body:
                    not contains(body, '```') and {{ json_strict('body') }})[1])[1])[1])[1]
end, false)
{%- endmacro %}

{#- json_extractable(x, strict, fenced): json_strict (pass `strict`, an already computed json_strict of x, to reuse it), or
    some json-tagged or untagged fenced block of the text is strict JSON. Pass `fenced`, an already computed
    json_fenced of x, to skip the block search where it is true: a whole fence whose body is strict JSON is such a
    block (its first ``` opens the fence; the body holds no ``` and, being JSON, does not end with a backtick, so the
    block ends at the closing fence, with at most a newline and spaces more, which JSON allows). At 1M generated
    replies, 40 % of them fenced: 2.4 s -> about 0.1 s. -#}
{% macro json_extractable(x, strict=none, fenced=none) -%}
  {{ return(adapter.dispatch('json_extractable', 'evalhouse')(x, strict, fenced)) }}
{%- endmacro %}
{% macro default__json_extractable(x, strict=none, fenced=none) -%}
  {#- raised when the model runs, not while dbt parses (the duckdb_only models that call it are parsed on every target) -#}
  {%- if execute %}{{ exceptions.raise_compiler_error("json_extractable is not implemented for adapter " ~ adapter.type()) }}{% endif -%}
{%- endmacro %}
{% macro duckdb__json_extractable(x, strict=none, fenced=none) -%}
{%- set ws = _py_space_class() -%}
{%- set block = "(?s)```([^\\n`]*)\\n(.*?)```" -%}
{#- a CASE, so the blocks are looked for only in texts that are not strict JSON and have a fence; each block's tag
    and body are extracted once (two regexp_extract_all, zipped) -#}
coalesce(case
    when coalesce({{ strict if strict is not none else json_strict(x) }}, false) then true
    {% if fenced is not none -%}
    when coalesce({{ fenced }}, false) then true
    {% endif -%}
    when not contains({{ x }}, '```') then false
    else len(list_filter(
        list_zip(regexp_extract_all({{ x }}, '{{ block }}', 1), regexp_extract_all({{ x }}, '{{ block }}', 2)),
        lambda block: lower(regexp_replace(block[1], '^{{ ws }}+|{{ ws }}+$', '', 'g')) in ('', 'json')
                 and {{ json_strict('block[2]') }})) > 0
end, false)
{%- endmacro %}
