{#-
  unique_combination: the grain test of a model. No two rows share the same values of `columns` (a list of column
  names; one column is the plain `unique` test). NULLs compare as equal, so a NULL in a key column is a duplicate
  of another NULL. Fails with one row per duplicated key and its row count n_rows.
  not_null (a list of column names, optional): these columns must not be NULL either, checked in the same test on
  the same rows (one test node instead of a not_null test per column; each node costs dbt 25-80 ms however small
  its query). With it, every failing row also says what failed in `problem`: 'duplicate key', or 'NULL in ' and the
  NULL columns (one row per key and set of NULL columns, n_rows the rows that have it).
  On an incremental rating-chain model that this `dbt build` ran incrementally, only the rows it recomputed are
  checked for duplicates (rating_chain_test_filter); every other run checks every row. The NULL check always reads
  every row: the restriction names its rows by a key column, and a row whose key is NULL would escape it.
  view_of (a ref), for a view that selects every row of one table with the key columns as they are (fct_ratings of
  int_ratings, fct_criterion_scores of int_effective_scores): the table's own grain test on the same columns already
  checks the key, so this test checks what the view adds: that it has exactly the table's rows (a join that repeats
  rows or a filter fails, with both counts), and, when compiled, that the table has that grain test, on the same
  columns in any order, with not_null covering this test's not_null columns (a compilation error naming what is
  missing otherwise). Two counts instead of grouping the 8M rows again at a million replies (2-3 s a test).
  accepted_values (a mapping of column name to the list of text values it may hold, optional): each such column
  holds one of its values or NULL (dbt's accepted_values test, quoted values, in the same query and node). A row
  that breaks it fails with problem '<column> not accepted: <value>'. Read like not_null: every row, in one pass.
  columns and not_null must be lists, accepted_values a non-empty mapping of non-empty lists: anything else
  (`not_null: item_id`, `accepted_values: {}`) is refused when dbt parses the project (the message does not name
  the model: when dbt parses, `model` is a placeholder; dbt's error header names the test and its YAML file).
  With view_of, not_null only: put accepted_values on the table. Quote a value YAML reads as another type ('yes',
  'no', 'null', '01').
-#}
{% test unique_combination(model, columns, view_of=none, not_null=none, accepted_values=none) %}
  {%- for name, value in [('columns', columns), ('not_null', not_null or [])] -%}
    {%- if value is string or value is mapping or value is not iterable -%}
      {{ exceptions.raise_compiler_error("unique_combination: " ~ name ~ " must be a list of column "
          ~ "names, as in " ~ name ~ ": [" ~ value ~ "] (got " ~ value ~ ")") }}
    {%- endif -%}
  {%- endfor -%}
  {%- if accepted_values is not none and (accepted_values is not mapping or accepted_values | length == 0) -%}
    {{ exceptions.raise_compiler_error("unique_combination: accepted_values must map each column "
        ~ "to its values, as in accepted_values: {status: [ok, failed]} (got " ~ accepted_values ~ ")") }}
  {%- endif -%}
  {%- for column, values in (accepted_values or {}).items() -%}
    {%- if values is string or values is mapping or values is not iterable or values | length == 0 -%}
      {{ exceptions.raise_compiler_error("unique_combination: accepted_values of " ~ column
          ~ " must be a non-empty list of values, as in accepted_values: {" ~ column ~ ": [a, b]} (got "
          ~ values ~ ")") }}
    {%- endif -%}
  {%- endfor -%}
  {%- if view_of is none -%}
{{ grain_test_sql(model, columns, not_null or [], rating_chain_test_filter(model, columns), accepted_values or {}) }}
  {%- elif accepted_values -%}
    {{ exceptions.raise_compiler_error("unique_combination with view_of: accepted_values is not checked on a view; "
        ~ "put it on the grain test of the table view_of names") }}
  {%- else -%}
{{ same_rows_as_grain_tested(model, columns, view_of, not_null or []) }}
  {%- endif -%}
{% endtest %}

{% macro grain_test_sql(model, columns, not_null, filter, accepted_values={}) -%}
  {%- if not_null | length == 0 and accepted_values | length == 0 -%}
{{ unique_combination_sql(model, columns, filter) }}
  {%- else -%}
    {%- set checks = [] -%}
    {%- set found = [] -%}
    {%- if not_null | length > 0 -%}
      {%- set any_null -%}
        {%- for column in not_null %}{{ column }} is null{% if not loop.last %} or {% endif %}{% endfor -%}
      {%- endset -%}
      {%- set names = [] -%}
      {%- for column in not_null -%}
        {%- do names.append(", case when " ~ column ~ " is null then '" ~ column ~ "' end") -%}
      {%- endfor -%}
      {%- do found.append(any_null) -%}
      {%- do checks.append("case when " ~ any_null ~ " then 'NULL in ' || concat_ws(', '" ~ names | join('')
                           ~ ") end") -%}
    {%- endif -%}
    {%- for column, values in accepted_values.items() -%}
      {%- set quoted = [] -%}
      {%- for value in values -%}
        {%- do quoted.append("'" ~ (value | string | replace("'", "''")) ~ "'") -%}
      {%- endfor -%}
      {%- set refused = column ~ " not in (" ~ quoted | join(', ') ~ ")" -%}
      {%- do found.append(refused) -%}
      {%- do checks.append("case when " ~ refused ~ " then '" ~ column ~ " not accepted: ' || cast(" ~ column
                           ~ " as string) end") -%}
    {%- endfor -%}
select duplicates.*, 'duplicate key' as problem
from ({{ unique_combination_sql(model, columns, filter) }}) as duplicates

union all

select {{ columns | join(', ') }}, count(*) as n_rows, problem
from (
    select
        {{ columns | join(', ') }},
    {%- set problem = checks[0] if checks | length == 1 else "concat_ws('; ', " ~ checks | join(', ') ~ ")" %}
        {{ problem }} as problem
    from {{ model }}
    where {{ found | join(' or ') }}
) as row_problems
group by {{ columns | join(', ') }}, problem
  {%- endif -%}
{%- endmacro %}

{% macro same_rows_as_grain_tested(model, columns, view_of, not_null=[]) -%}
  {%- if execute -%}
    {#- the table's grain tests on the same columns (in any order), each with the not_null columns it lacks -#}
    {%- set found = [] -%}
    {%- for node in graph.nodes.values() -%}
      {%- set meta = node.test_metadata if node.resource_type == 'test' and node.test_metadata else none -%}
      {%- if meta and node.attached_node and node.attached_node.split('.')[-1] == view_of.identifier
            and meta.kwargs.get('view_of') is none -%}
        {%- if meta.name == 'unique_combination' and meta.kwargs.get('columns') | sort == columns | sort -%}
          {%- do found.append(not_null | reject('in', meta.kwargs.get('not_null') or []) | list) -%}
        {%- elif meta.name == 'unique' and [meta.kwargs.get('column_name')] == columns -%}
          {%- do found.append(not_null) -%}
        {%- endif -%}
      {%- endif -%}
    {%- endfor -%}
    {%- if found | length == 0 -%}
      {{ exceptions.raise_compiler_error("unique_combination on " ~ model.identifier ~ " with view_of "
          ~ view_of.identifier ~ ": " ~ view_of.identifier ~ " has no grain test on " ~ columns | join(', ')
          ~ " (unique_combination with these columns, or unique): add it there, or drop view_of") }}
    {%- elif found | select('equalto', []) | list | length == 0 -%}
      {{ exceptions.raise_compiler_error("unique_combination on " ~ model.identifier ~ " with view_of "
          ~ view_of.identifier ~ ": the grain test of " ~ view_of.identifier ~ " on " ~ columns | join(', ')
          ~ " does not check " ~ found[0] | join(', ') ~ " for NULLs: add them to its not_null, or drop them "
          ~ "from this test's not_null") }}
    {%- endif -%}
  {%- endif -%}
select view_rows.n_rows as n_rows, table_rows.n_rows as n_rows_of_table
from (select count(*) as n_rows from {{ model }}) as view_rows
cross join (select count(*) as n_rows from {{ view_of }}) as table_rows
where view_rows.n_rows <> table_rows.n_rows
{%- endmacro %}

{% macro unique_combination_sql(model, columns, filter) -%}
  {{ return(adapter.dispatch('unique_combination_sql', 'evalhouse')(model, columns, filter)) }}
{%- endmacro %}

{% macro default__unique_combination_sql(model, columns, filter) -%}
select {{ columns | join(', ') }}, count(*) as n_rows
from {{ model }}
{{ filter }}
group by {{ columns | join(', ') }}
having count(*) > 1
{%- endmacro %}

{#- On DuckDB a key of several columns is grouped on one 64-bit hash of them first, and only the rows whose hash
    repeats are grouped on the columns themselves: the same rows fail (equal keys have equal hashes, and rows of
    different keys that share a hash are told apart by the second grouping; hash() maps NULL to one value, so NULLs
    still compare equal). Grouping 8M rows on six text columns took 1.5-1.7 s, this 0.9-1.0 s. -#}
{% macro duckdb__unique_combination_sql(model, columns, filter) -%}
  {%- if columns | length == 1 -%}
{{ default__unique_combination_sql(model, columns, filter) }}
  {%- else -%}
with keyed as (
    select hash({{ columns | join(', ') }}) as key_hash, {{ columns | join(', ') }}
    from {{ model }}
    {{ filter }}
),

repeated as (
    select key_hash from keyed group by key_hash having count(*) > 1
)

select {{ columns | join(', ') }}, count(*) as n_rows
from keyed
where key_hash in (select repeated.key_hash from repeated)
group by {{ columns | join(', ') }}
having count(*) > 1
  {%- endif -%}
{%- endmacro %}
