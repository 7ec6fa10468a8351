{#- Macros of the decision comparison (models/*/decisions). Engine-specific SQL goes through adapter.dispatch. -#}

{#-
  decisions_read_case_csv(kind, columns, amount_columns): every readable pack/cases/<case>/<kind>.csv file (as
  listed by base_decisions__case_files, with its own delimiter and number locale), one branch per file, unioned.
  Columns: source_file, source_row (the row's number in its file, decisions_file_row_number: 1 = the first row
  after the header), the listed text columns, extra_fields (text of a field beyond the header: the row has too
  many fields; NULL otherwise; a row with too few fields has its last columns NULL) and <column>_value, the exact
  DECIMAL(38, 6) of each amount column in the case's locale (decisions_parse_amount). (source_file, source_row) is
  unique. A file that cannot be read (base_decisions__case_files.file_problem) is left out here; the models count
  it against its case. The reading model's parents are recorded here: the declared source decisions.<kind> (the
  files read) and base_decisions__case_files (queried at compile time for the files and how to read each), so the
  model needs no `-- depends_on:` line. Called by base_decisions__pos, __budget and __inventory only.
-#}
{% macro decisions_read_case_csv(kind, columns, amount_columns) -%}
  {%- set _ = source('decisions', kind) -%}
  {%- set listing = ref('base_decisions__case_files') -%}
  {%- set files = [] -%}
  {%- if execute -%}
    {%- set found = run_query("select source_file, csv_delimiter, decimal_separator, thousands_separator from "
        ~ listing ~ " where file_kind = '" ~ kind ~ "' and file_problem is null order by source_file") -%}
    {%- set files = found.rows -%}
  {%- endif -%}
  (
  {%- for f in files %}
    select
        filename as source_file,
        source_row,
        {%- for c in columns %} {{ c }},{% endfor %} extra_fields
        {%- for c in amount_columns %},
        {{ decisions_parse_amount(c, f[2], f[3]) }} as {{ c }}_value
        {%- endfor %}
    from {{ decisions_read_csv_file(f[0], columns, f[1]) }}
    {%- if not loop.last %}
    union all
    {%- endif %}
  {%- else %}
    select
        cast(null as varchar) as source_file,
        cast(null as integer) as source_row,
        {%- for c in columns %} cast(null as varchar) as {{ c }},{% endfor %} cast(null as varchar) as extra_fields
        {%- for c in amount_columns %}, cast(null as decimal(38, 6)) as {{ c }}_value{% endfor %}
    where false
  {%- endfor %}
  )
{%- endmacro %}

{#- decisions_read_csv_file(path, columns, delimiter): one CSV file, every column as text plus extra_fields, rows with
    too few fields padded with NULL, rows with too many fields keep the first extra field in extra_fields; and
    source_row, the row's number in the file (decisions_file_row_number). Never sniffed. -#}
{% macro decisions_read_csv_file(path, columns, delimiter) -%}
  {{ return(adapter.dispatch('decisions_read_csv_file', 'evalhouse')(path, columns, delimiter)) }}
{%- endmacro %}
{% macro default__decisions_read_csv_file(path, columns, delimiter) -%}
  {#- raised when the model runs, not while dbt parses (the duckdb_only models that call it are parsed on every target) -#}
  {%- if execute %}{{ exceptions.raise_compiler_error("decisions_read_csv_file is not implemented for adapter " ~ adapter.type()) }}{% endif -%}
{%- endmacro %}
{% macro duckdb__decisions_read_csv_file(path, columns, delimiter) -%}
(
    select
        {{ decisions_file_row_number() }} as source_row,
        csv_file.*
    from read_csv('{{ path }}', header = true, auto_detect = false,
                  delim = '{{ {",": ",", ";": ";", "tab": "\t", "|": "|"}[delimiter] }}', quote = '"', escape = '"',
                  filename = true, null_padding = true, strict_mode = false,
                  columns = { {%- for c in columns %}'{{ c }}': 'VARCHAR', {% endfor -%} 'extra_fields': 'VARCHAR' })
        as csv_file
)
{%- endmacro %}

{#-
  decisions_file_row_number(): the number of each row in its file, as an INTEGER column of a SELECT whose FROM is
  the reader of that one file alone (no join, no WHERE in that SELECT: a WHERE applies before window functions):
  1 = the first row after the header, then the rows in the order the reader returns them (a blank line, which the
  reader skips, is not counted; with no blank line, row N is line N + 1 of the file). DuckDB: row_number() OVER ()
  -- DuckDB returns a single scan's rows in file order and a window with an empty OVER keeps that order (DuckDB's
  documented order preservation, preserve_insertion_order on, its default), so the number is the same on every run.
  The numbering runs that one file's scan on one thread (a streaming window); the files are separate scans.
-#}
{% macro decisions_file_row_number() -%}
  {{ return(adapter.dispatch('decisions_file_row_number', 'evalhouse')()) }}
{%- endmacro %}
{% macro default__decisions_file_row_number() -%}
  {#- raised when the model runs, not while dbt parses (the duckdb_only models that call it are parsed on every target) -#}
  {%- if execute %}{{ exceptions.raise_compiler_error("decisions_file_row_number is not implemented for adapter " ~ adapter.type()) }}{% endif -%}
{%- endmacro %}
{% macro duckdb__decisions_file_row_number() -%}
cast(row_number() over () as integer)
{%- endmacro %}

{#-
  decisions_parse_amount(expr, decimal_separator, thousands_separator): exact DECIMAL(38, 6) of a money/quantity
  text, NULL when empty or unreadable. Grammar (the same as evalhouse.decisions.money.parse_amount, built by
  decisions_amount_pattern): surrounding spaces; optional '-'; one optional currency mark (¥ ￥ € £ $) before the
  number (the '-' before or after it) or after it; digits plain or grouped by thousands (groups of 3) with the
  thousands separator; optional fraction of 1-6 digits after the decimal separator. Separators: decimal '.' or ',';
  thousands ',', '.', 'space' (U+0020, U+00A0 or U+202F) or 'none'. Default ('.', ','): 1200, "1,200", ¥1,200,
  -¥350, 12.5. (',', '.'): 1.401,40 -> 1401.40, 22,30 -> 22.30. (',', 'space'): 1 200,50 € -> 1200.50.
  Rejected: N/A, 1,2,00, 12., more than 6 decimals, two minus signs, and amounts of 10^12 or more per row (the text
  is parsed as DECIMAL(18, 6), then widened to DECIMAL(38, 6): DuckDB 1.5.5 parses text into DECIMAL(38, x) about
  200x slower than into DECIMAL(18, x) -- 14 s vs 0.07 s per million values on this machine).
-#}
{% macro decisions_amount_pattern(decimal_separator='.', thousands_separator=',') -%}
  {%- set spaces = '[ \\x{00A0}\\x{202F}]' -%}
  {%- set dec = {'.': '[.]', ',': '[,]'}[decimal_separator] -%}
  {%- set thousands = {',': '[,]', '.': '[.]', 'space': spaces, 'none': ''}[thousands_separator] -%}
  {%- set grouped = ('[0-9]{1,3}(' ~ thousands ~ '[0-9]{3})+|') if thousands else '' -%}
  {%- set number = '(' ~ grouped ~ '[0-9]+)(' ~ dec ~ '[0-9]{1,6})?' -%}
  {%- set currency = '[¥￥€£$]' -%}
-?{{ currency }}?-?{{ number }}|-?{{ number }}{{ spaces }}*{{ currency }}
{%- endmacro %}
{% macro decisions_parse_amount(expr, decimal_separator='.', thousands_separator=',') -%}
  {%- set trimmed = "trim(" ~ expr ~ ", ' ' || chr(9) || chr(160) || chr(8239))" -%}
  {%- set cleaned = "replace(replace(replace(replace(replace(replace(replace(" ~ trimmed
      ~ ", '¥', ''), '￥', ''), '€', ''), '£', ''), '$', ''), chr(160), ''), chr(8239), '')" -%}
  {%- set cleaned = "replace(" ~ cleaned ~ ", ' ', '')" -%}
  {%- if thousands_separator in (',', '.') -%}
    {%- set cleaned = "replace(" ~ cleaned ~ ", '" ~ thousands_separator ~ "', '')" -%}
  {%- endif -%}
  {%- if decimal_separator == ',' -%}
    {%- set cleaned = "replace(" ~ cleaned ~ ", ',', '.')" -%}
  {%- endif -%}
case
    when {{ regex_full_match(trimmed, decisions_amount_pattern(decimal_separator, thousands_separator)) }}
     and length({{ trimmed }}) - length(replace({{ trimmed }}, '-', '')) <= 1
    then cast(try_cast({{ cleaned }} as decimal(18, 6)) as decimal(38, 6))
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
