{#- Macros of the decision comparison (models/*/decisions). Engine-specific SQL goes through adapter.dispatch. -#}

{#- decisions_var(name): a path setting with its default under data/decisions/ (override with --vars). -#}
{% macro decisions_path(name) -%}
  {%- set root = var('decisions_dir', 'data/decisions') -%}
  {%- set defaults = {
      'pos_glob': root ~ '/pack/cases/*/pos.csv',
      'budget_glob': root ~ '/pack/cases/*/budget.csv',
      'inventory_glob': root ~ '/pack/cases/*/inventory.csv',
      'cases_csv': root ~ '/pack/cases.csv',
      'uci_parquet': root ~ '/pack/cases/R01/pos.parquet',
      'reviews_glob': root ~ '/reviews/*.csv',
      'review_keys_glob': root ~ '/reviews/keys/*.csv',
  } -%}
  {{- var('decisions_' ~ name, defaults[name]) -}}
{%- endmacro %}

{#- decisions_read_csv_text(glob, columns): every listed column as text (never sniffed), plus `filename`. -#}
{% macro decisions_read_csv_text(glob, columns) -%}
  {{ return(adapter.dispatch('decisions_read_csv_text', 'evalhouse')(glob, columns)) }}
{%- endmacro %}
{% macro default__decisions_read_csv_text(glob, columns) -%}
  {{ exceptions.raise_compiler_error("decisions_read_csv_text is not implemented for adapter " ~ adapter.type()) }}
{%- endmacro %}
{% macro duckdb__decisions_read_csv_text(glob, columns) -%}
read_csv('{{ glob }}', header = true, auto_detect = false, delim = ',', quote = '"', escape = '"',
         filename = true, null_padding = false,
         columns = { {%- for c in columns %}'{{ c }}': 'VARCHAR'{{ ", " if not loop.last }}{% endfor -%} })
{%- endmacro %}

{#- decisions_read_parquet(path): a typed Parquet file. -#}
{% macro decisions_read_parquet(path) -%}
  {{ return(adapter.dispatch('decisions_read_parquet', 'evalhouse')(path)) }}
{%- endmacro %}
{% macro default__decisions_read_parquet(path) -%}
parquet.`{{ path }}`
{%- endmacro %}
{% macro duckdb__decisions_read_parquet(path) -%}
read_parquet('{{ path }}')
{%- endmacro %}

{#- decisions_full_match(expr, pattern): true when the whole text matches the regular expression. -#}
{% macro decisions_full_match(expr, pattern) -%}
  {{ return(adapter.dispatch('decisions_full_match', 'evalhouse')(expr, pattern)) }}
{%- endmacro %}
{% macro default__decisions_full_match(expr, pattern) -%}
({{ expr }} rlike '^({{ pattern }})$')
{%- endmacro %}
{% macro duckdb__decisions_full_match(expr, pattern) -%}
regexp_full_match({{ expr }}, '{{ pattern }}')
{%- endmacro %}

{#- decisions_parent_dir(path_expr): name of the folder holding a file (the case id of cases/<case>/pos.csv). -#}
{% macro decisions_parent_dir(expr) -%}
  {{ return(adapter.dispatch('decisions_parent_dir', 'evalhouse')(expr)) }}
{%- endmacro %}
{% macro default__decisions_parent_dir(expr) -%}
regexp_extract(replace({{ expr }}, '\\', '/'), '([^/]+)/[^/]+$', 1)
{%- endmacro %}
{% macro duckdb__decisions_parent_dir(expr) -%}
regexp_extract(replace({{ expr }}, '\', '/'), '([^/]+)/[^/]+$', 1)
{%- endmacro %}

{#- decisions_string_agg(expr, sep, order_expr): ordered text list of a group. -#}
{% macro decisions_string_agg(expr, sep, order_expr) -%}
  {{ return(adapter.dispatch('decisions_string_agg', 'evalhouse')(expr, sep, order_expr)) }}
{%- endmacro %}
{% macro default__decisions_string_agg(expr, sep, order_expr) -%}
array_join(transform(array_sort(collect_list(struct({{ order_expr }} as k, {{ expr }} as v))), x -> x.v), '{{ sep }}')
{%- endmacro %}
{% macro duckdb__decisions_string_agg(expr, sep, order_expr) -%}
string_agg({{ expr }}, '{{ sep }}' order by {{ order_expr }})
{%- endmacro %}

{#-
  decisions_parse_amount(expr): exact DECIMAL(38, 6) of a money/quantity text, NULL when empty or unreadable.
  Grammar (same as evalhouse.decisions.money.parse_amount): optional '-', optional yen mark, optional '-', digits
  plain or grouped by thousands with commas, optional fraction of 1-6 digits: 1200, "1,200", ¥1,200, -¥350, 12.5.
  Rejected: N/A, 1,2,00, 12., more than 6 decimals, two minus signs, and amounts of 10^12 or more per row (the text
  is parsed as DECIMAL(18, 6), then widened to DECIMAL(38, 6): DuckDB 1.5.5 parses text into DECIMAL(38, x) about
  200x slower than into DECIMAL(18, x) -- 14 s vs 0.07 s per million values on this machine).
-#}
{% macro decisions_amount_pattern() -%}
-?[¥￥]?-?([0-9]{1,3}(,[0-9]{3})+|[0-9]+)([.][0-9]{1,6})?
{%- endmacro %}
{% macro decisions_parse_amount(expr) -%}
case
    when {{ decisions_full_match('trim(' ~ expr ~ ')', decisions_amount_pattern()) }}
     and length(trim({{ expr }})) - length(replace(trim({{ expr }}), '-', '')) <= 1
    then cast(try_cast(replace(replace(replace(trim({{ expr }}), '¥', ''), '￥', ''), ',', '') as decimal(18, 6))
              as decimal(38, 6))
end
{%- endmacro %}

{#- decisions_round_cents(expr): round to cents, half away from zero (0.125 -> 0.13, -0.125 -> -0.13). -#}
{% macro decisions_round_cents(expr) -%}
cast(round({{ expr }}, 2) as decimal(38, 2))
{%- endmacro %}

{#- The primary numeric verdict tolerance (protocol: numeric_thresholds.abs_tolerance), boundary inclusive. -#}
{% macro decisions_abs_tolerance() -%}
cast('0.01' as decimal(38, 12))
{%- endmacro %}

{#- decisions_share(num, den): num / den as DECIMAL(9, 6) (NULL when den is 0 or NULL). -#}
{% macro decisions_share(num, den) -%}
case when {{ den }} > 0 then cast(cast({{ num }} as decimal(18, 6)) / {{ den }} as decimal(9, 6)) end
{%- endmacro %}

{#- The six top-level P&L fields, as a one-column relation `field_name` with its display order. -#}
{% macro decisions_pnl_fields() -%}
select 'revenue_delta' as field_name, 1 as field_order
union all select 'gross_margin_delta', 2
union all select 'contribution_delta', 3
union all select 'revenue_vs_budget', 4
union all select 'gross_margin_vs_budget', 5
union all select 'unexplained_inventory_exposure', 6
{%- endmacro %}
