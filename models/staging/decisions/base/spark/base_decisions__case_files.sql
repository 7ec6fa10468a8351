{#-
  The SQL form of base_decisions__case_files (the Python model of the same name, evalhouse.decisions.case_files),
  for engines without Python models (Spark; on DuckDB with var portable_forms_on_duckdb, so the tests compare the two
  on the same packs). Same rows: every pack/cases/<case>/{pos,budget,inventory}.csv under decisions_dir with the
  delimiter and number locale it is read with, or file_problem, with the Python model's texts.
  - The declared locale per case comes from the rows of pack/cases.csv as base_decisions__cases read them (a case
    listed twice takes its last row; a row is named <cases.csv>:<line>, line 1 the header). A bad declaration makes
    all three files of the case unreadable, with the default locale and locale_source 'default'.
  - Only the first line of each case CSV is used (decisions_case_file_heads: NULL when it is not UTF-8): a leading
    BOM and the trailing carriage returns are dropped, then the header must split into the file kind's columns with
    the declared delimiter, or (none declared) with one of , ; tab |. Python splits with csv.reader and strips each
    field; here a regular expression per delimiter matches the same headers: each field is the column name with
    whitespace (Python's str.strip set, the delimiter excluded) around it, or in double quotes with whitespace
    inside and after the closing quote. No column name holds a delimiter, so at most one delimiter matches.
    Known differences (headers that are wrong either way in practice): text after a closing quote other than
    whitespace ("dat"e), and non-printable characters in a header quoted into a problem text (Python's repr escapes
    them; decisions_py_repr writes them as they are).
-#}
{{ config(materialized='table') }}
{#- The case CSVs are opened by path (decisions_case_file_heads); their sources are named for the lineage, as the
    Python model names them, so that a build of what changed reruns this listing when a case CSV changes. -#}
{%- for kind in ['pos', 'budget', 'inventory'] -%}{%- set _ = source('decisions', kind) -%}{%- endfor %}
{%- set root = var('decisions_dir', 'data/decisions').rstrip('/') -%}
{%- set kinds = {
    'pos': ['date', 'store_id', 'channel', 'sku', 'quantity', 'unit_price', 'unit_cost', 'promo_flag'],
    'budget': ['metric', 'amount'],
    'inventory': ['store_id', 'sku', 'opening_units', 'received_units', 'counted_closing_units', 'unit_cost'],
} -%}
{#- delimiter name as declared, its character as a SQL expression, its regular-expression form -#}
{%- set delimiters = [(',', "','", ','), (';', "';'", ';'), ('tab', 'chr(9)', '\\x{9}'), ('|', "'|'", '[|]')] -%}
{#- header_patterns[(kind, delimiter name)]: each field is the column name with Python's str.strip() whitespace
    around it (without the delimiter itself: a tab splits before the strip), or the same in double quotes followed
    by whitespace -#}
{%- set header_patterns = {} -%}
{%- for kind, names in kinds.items() -%}
  {%- for name, _, delimiter_pattern in delimiters -%}
    {%- set ws = '[' ~ ('\\x{a}-\\x{d}' if name == 'tab' else '\\x{9}-\\x{d}')
        ~ '\\x{1c}-\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}]*' -%}
    {%- set fields = [] -%}
    {%- for n in names -%}
      {%- do fields.append('(' ~ ws ~ n ~ ws ~ '|"' ~ ws ~ n ~ ws ~ '"' ~ ws ~ ')') -%}
    {%- endfor -%}
    {%- do header_patterns.update({(kind, name): fields | join(delimiter_pattern)}) -%}
  {%- endfor -%}
{%- endfor -%}

with cases as (
    select
        trim(case_id)                                       as case_id,
        filename || ':' || cast(source_row + 1 as string)   as row_ref,
        nullif(trim(csv_delimiter), '')                     as delimiter_declared,
        coalesce(trim(decimal_separator), '')               as decimal_raw,
        coalesce(trim(thousands_separator), '')             as thousands_raw
    from {{ ref('base_decisions__cases') }}
    where trim(case_id) <> ''
    qualify row_number() over (partition by trim(case_id) order by source_row desc) = 1
),

declared as (
    select
        case_id,
        row_ref,
        delimiter_declared,
        delimiter_declared is not null or decimal_raw <> '' or thousands_raw <> ''  as is_declared,
        case when decimal_raw = '' then '.' else decimal_raw end                      as decimal_separator,
        case
            when thousands_raw <> '' then thousands_raw
            when decimal_raw = ',' then '.'
            else ','
        end                                                                           as thousands_separator
    from cases
),

locales as (
    select
        *,
        case
            when delimiter_declared is not null and delimiter_declared not in (',', ';', 'tab', '|')
                then row_ref || ':csv_delimiter: ' || {{ decisions_py_repr('delimiter_declared') }}
                     || ' is not one of ,, ;, tab, |'
            when decimal_separator not in ('.', ',')
                then row_ref || ':decimal_separator: decimal_separator ' || {{ decisions_py_repr('decimal_separator') }}
                     || ' is not one of . ,'
            when thousands_separator not in (',', '.', 'space', 'none')
                then row_ref || ':thousands_separator: thousands_separator '
                     || {{ decisions_py_repr('thousands_separator') }} || ' is not one of , . space none'
            when decimal_separator = thousands_separator
                then row_ref || ':thousands_separator: decimal and thousands separators are both '
                     || {{ decisions_py_repr('decimal_separator') }}
        end as declaration_problem
    from declared
),

heads as (
    select
        {{ parent_dir_name('file_path') }}                            as case_id,
        regexp_extract(file_path, '([^/]+)[.]csv$', 1)                as file_kind,
        first_line
    from {{ decisions_case_file_heads(root ~ '/pack/cases') }}
),

files as (
    select
        heads.case_id,
        heads.file_kind,
        '{{ root }}/pack/cases/' || heads.case_id || '/' || heads.file_kind || '.csv' as source_file,
        {{ regex_replace_all(
            "case when left(heads.first_line, 1) = " ~ unicode_char(65279)
            ~ " then substr(heads.first_line, 2) else heads.first_line end",
            "'[' || chr(13) || ']+$'", "''") }}                      as header_line,
        locales.case_id is not null and locales.declaration_problem is null    as uses_declaration,
        locales.delimiter_declared,
        locales.is_declared,
        locales.decimal_separator,
        locales.thousands_separator,
        locales.declaration_problem
    from heads
    left join locales on locales.case_id = heads.case_id
    where heads.file_kind in ('pos', 'budget', 'inventory')
),

matched as (
    select
        *,
        case file_kind
        {%- for kind, names in kinds.items() %}
            when '{{ kind }}' then case
            {%- for name, _, _ in delimiters %}
                when {{ regex_full_match('header_line', header_patterns[(kind, name)]) }} then '{{ name }}'
            {%- endfor %}
            end
        {%- endfor %}
        end as delimiter_matched,
        case file_kind
        {%- for kind, names in kinds.items() %}
            {%- set expected = "['" ~ (names | join("', '")) ~ "']" %}
            when '{{ kind }}' then '{{ expected | replace("'", "''") }}'
        {%- endfor %}
        end as expected_repr
    from files
)

select
    case_id,
    file_kind,
    source_file,
    case
        when declaration_problem is not null or header_line is null then cast(null as string)
        when delimiter_declared is null then delimiter_matched
        when delimiter_matched = delimiter_declared then delimiter_declared
    end                                                                             as csv_delimiter,
    case when uses_declaration then decimal_separator else '.' end                  as decimal_separator,
    case when uses_declaration then thousands_separator else ',' end                as thousands_separator,
    case when uses_declaration and is_declared then 'declared' else 'default' end   as locale_source,
    case
        when declaration_problem is not null then declaration_problem
        when header_line is null then source_file || ': row 1 (header): not UTF-8'
        when delimiter_declared is not null and coalesce(delimiter_matched, '') <> delimiter_declared
            then source_file || ': row 1 (header): columns ' || {{ decisions_py_repr('header_line') }}
                 || ' do not split into ' || expected_repr || ' with the declared delimiter '
                 || {{ decisions_py_repr("case delimiter_declared when 'tab' then chr(9) else delimiter_declared end") }}
        when delimiter_declared is null and delimiter_matched is null
            then source_file || ': row 1 (header): columns ' || {{ decisions_py_repr('header_line') }}
                 || ' differ from ' || expected_repr || ' with every delimiter (,, ;, tab, |)'
    end                                                                             as file_problem
from matched
