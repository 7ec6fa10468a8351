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
        cast(null as string) as source_file,
        cast(null as integer) as source_row,
        {%- for c in columns %} cast(null as string) as {{ c }},{% endfor %} cast(null as string) as extra_fields
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
{#- Spark: an external CSV table over the one file (created while the model compiles, like spark_csv_relation), with
    the listed columns plus extra_fields as strings (enforceSchema: the header line is skipped, never matched by
    name), header, multiLine, RFC 4180 quotes (quote and escape '"'), PERMISSIVE (a row with fewer fields gets NULLs,
    one with more keeps the first extra field in extra_fields and drops the rest, as DuckDB's null_padding and
    strict_mode = false do); an empty field, quoted or not, is NULL on both engines. multiLine also makes the file one
    partition read in file order (decisions_file_row_number relies on it). filename is the path as given. -#}
{% macro default__decisions_read_csv_file(path, columns, delimiter) -%}
  {%- set table = target.schema ~ '.evalhouse_dcsv_' ~ local_md5(path ~ '|' ~ delimiter ~ '|' ~ (columns | join(','))) -%}
  {%- if execute -%}
    {#- a table's relative path would be taken relative to the database's folder: the file's URI as Spark resolves
        the path in a query (binaryFile lists it without reading the content) -#}
    {%- set uri = run_query("select path from binaryFile.`" ~ path ~ "`").columns[0].values()[0] -%}
    {%- do run_query('drop table if exists ' ~ table) -%}
    {%- do run_query("create table " ~ table ~ " (`" ~ ((columns + ['extra_fields']) | join('` string, `')) ~ "` string)"
        ~ " using csv options (path '" ~ uri ~ "', header 'true', multiLine 'true', sep '"
        ~ {",": ",", ";": ";", "tab": "\t", "|": "|"}[delimiter] ~ "', quote '\"', escape '\"', inferSchema 'false',"
        ~ " enforceSchema 'true', mode 'PERMISSIVE')") -%}
  {%- endif %}
(
    select
        {{ decisions_file_row_number() }} as source_row,
        csv_file.*,
        '{{ path }}' as filename
    from {{ table }} as csv_file
)
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
  Spark: row_number() OVER (ORDER BY monotonically_increasing_id()). The reader is one CSV file read with multiLine
  (decisions_read_csv_file, spark_csv_relation): Spark's multi-line CSV source is not splittable, so the file is one
  partition of the scan, whose rows come in file order; monotonically_increasing_id() is the partition id in the
  upper 31 bits and the record's position in the partition's iterator in the lower 33 bits, so within one partition
  it increases in file order (the row order guarantee used here: one file per scan, one partition, no shuffle
  between the scan and the id; the window then sorts on the id).
-#}
{% macro decisions_file_row_number() -%}
  {{ return(adapter.dispatch('decisions_file_row_number', 'evalhouse')()) }}
{%- endmacro %}
{% macro default__decisions_file_row_number() -%}
cast(row_number() over (order by monotonically_increasing_id()) as integer)
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
  200x slower than into DECIMAL(18, x) -- 14 s vs 0.07 s per million values on this machine). Portable: the
  characters through unicode_char (Spark's chr(8239) is chr(47)), trim_chars, the pattern's backslashes doubled on
  Spark (regex_full_match) and try_cast (NULL on both engines for text DECIMAL(18, 6) cannot hold).
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
  {%- set nbsp, nnbsp = unicode_char(160), unicode_char(8239) -%}
  {%- set trimmed = trim_chars(expr, "' ' || chr(9) || " ~ nbsp ~ " || " ~ nnbsp) -%}
  {%- set cleaned = "replace(replace(replace(replace(replace(replace(replace(" ~ trimmed
      ~ ", '¥', ''), '￥', ''), '€', ''), '£', ''), '$', ''), " ~ nbsp ~ ", ''), " ~ nnbsp ~ ", '')" -%}
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

{#- decisions_exact_product(a, b): a x b exact (12 decimals) for two DECIMAL(38, 6) amounts with |a| < 10^13 and
    |b| < 10^12 (the parsed amounts are below 10^12: decisions_parse_amount). DuckDB keeps the scale (6 + 6). Spark
    types DECIMAL(38, 6) x DECIMAL(38, 6) as (77, 12) and, past 38 digits, cuts the scale to 6 (rounding the product):
    its form multiplies DECIMAL(19, 6) by DECIMAL(18, 6), typed (38, 12) exactly (a wider value is NULL there, ANSI
    being off). -#}
{% macro decisions_exact_product(a, b) -%}
  {{ return(adapter.dispatch('decisions_exact_product', 'evalhouse')(a, b)) }}
{%- endmacro %}
{% macro default__decisions_exact_product(a, b) -%}
(cast({{ a }} as decimal(19, 6)) * cast({{ b }} as decimal(18, 6)))
{%- endmacro %}
{% macro duckdb__decisions_exact_product(a, b) -%}({{ a }} * {{ b }}){%- endmacro %}

{#- decisions_exact_difference(a, b): a - b as DECIMAL(38, 12), exact for DECIMAL(38, 12) values below 10^25. DuckDB
    keeps (38, 12); Spark types (38, 12) - (38, 12) as (39, 12) and cuts the scale to 11 at 38 digits (decimal_38_18_add
    has the same cause): its form subtracts two DECIMAL(37, 12), typed (38, 12). -#}
{% macro decisions_exact_difference(a, b) -%}
  {{ return(adapter.dispatch('decisions_exact_difference', 'evalhouse')(a, b)) }}
{%- endmacro %}
{% macro default__decisions_exact_difference(a, b) -%}
cast(cast({{ a }} as decimal(37, 12)) - cast({{ b }} as decimal(37, 12)) as decimal(38, 12))
{%- endmacro %}
{% macro duckdb__decisions_exact_difference(a, b) -%}cast({{ a }} - {{ b }} as decimal(38, 12)){%- endmacro %}

{#-
  decisions_case_file_heads(cases_dir): one row per file matching <cases_dir>/*/*.csv: file_path (the path as the
  engine names it; the SQL base_decisions__case_files takes only the case folder and the file name from it) and
  first_line, the text before the file's first line feed (a BOM and a trailing carriage return kept), NULL when
  those bytes are not valid UTF-8 -- what evalhouse.decisions.case_files opens of a case CSV (its first line). The
  whole file is read (these are the case CSVs, read whole anyway).
  DuckDB: read_blob; the blob is cast to its escaped text (every byte outside printable ASCII, a backslash included,
  written \xHH), cut at the first \x0A, checked against the byte sequences of valid UTF-8 (RFC 3629) and only
  then cast back to bytes and decoded.
  Spark: the binaryFile source (path, content; a file up to 2 GB); the bytes before the first line feed as a
  string, is_valid_utf8() for the check.
-#}
{% macro decisions_case_file_heads(cases_dir) -%}
  {{ return(adapter.dispatch('decisions_case_file_heads', 'evalhouse')(cases_dir)) }}
{%- endmacro %}
{% macro default__decisions_case_file_heads(cases_dir) -%}
(
    select
        path as file_path,
        case
            when is_valid_utf8(substring_index(cast(content as string), chr(10), 1))
            then substring_index(cast(content as string), chr(10), 1)
        end as first_line
    from binaryFile.`{{ cases_dir }}/*/*.csv`
)
{%- endmacro %}
{% macro duckdb__decisions_case_file_heads(cases_dir) -%}
  {#- the escaped text holds printable ASCII and \xHH escapes; valid UTF-8 as RFC 3629's byte sequences over them -#}
  {%- set b = '\\\\x' -%}
  {%- set cont = b ~ '[89AB][0-9A-F]' -%}
  {%- set utf8 = '([^\\\\]|' ~ b ~ '[0-7][0-9A-F]'
      ~ '|' ~ b ~ 'C[2-9A-F]' ~ cont ~ '|' ~ b ~ 'D[0-9A-F]' ~ cont
      ~ '|' ~ b ~ 'E0' ~ b ~ '[AB][0-9A-F]' ~ cont ~ '|' ~ b ~ 'E[1-9A-CEF]' ~ cont ~ cont ~ '|' ~ b ~ 'ED' ~ b ~ '[89][0-9A-F]' ~ cont
      ~ '|' ~ b ~ 'F0' ~ b ~ '[9AB][0-9A-F]' ~ cont ~ cont ~ '|' ~ b ~ 'F[1-3]' ~ cont ~ cont ~ cont
      ~ '|' ~ b ~ 'F4' ~ b ~ '8[0-9A-F]' ~ cont ~ cont ~ ')*' -%}
(
    select
        file_path,
        case when regexp_full_match(escaped, '{{ utf8 }}') then decode(cast(escaped as blob)) end as first_line
    from (
        select filename as file_path, split_part(cast(content as varchar), chr(92) || 'x0A', 1) as escaped
        from read_blob('{{ cases_dir }}/*/*.csv')
    )
)
{%- endmacro %}

{#- decisions_py_repr(expr): Python's repr() of a text, as evalhouse.decisions.case_files writes it in problems:
    in single quotes, or in double quotes when the text holds a single quote and no double quote; backslash, tab,
    carriage return, line feed and the chosen quote escaped. Other characters Python escapes (control and
    non-printable ones, e.g. U+00A0 as \xa0) are written as they are. -#}
{% macro decisions_py_repr(expr) -%}
  {%- set escaped = "replace(replace(replace(replace(" ~ expr ~ ", chr(92), chr(92) || chr(92)), chr(9), chr(92) || 't'), "
      ~ "chr(13), chr(92) || 'r'), chr(10), chr(92) || 'n')" -%}
case
    when instr({{ expr }}, '''') > 0 and instr({{ expr }}, '"') = 0 then '"' || {{ escaped }} || '"'
    else '''' || replace({{ escaped }}, '''', chr(92) || '''') || ''''
end
{%- endmacro %}
