{#-
  Reading an append-only folder of CSV files (the ratings store) incrementally: a model keeps, beside each row, its
  file's size and modification time (file_size, file_modified); an incremental run reads only the files that are
  new or whose size or time changed, and its pre-hook deletes the rows of files that changed or are gone. A full
  run (first build, --full-refresh, other engines) reads every file. DuckDB only (read_blob lists the files without
  reading them); on other engines the model is a table and these macros read everything.
-#}

{#- source_file_stamps(source_name, table_name): a relation of the source's files: filename, size (bytes),
    last_modified; no file read. -#}
{% macro source_file_stamps(source_name, table_name) -%}
  {{ return(adapter.dispatch('source_file_stamps', 'evalhouse')(source_name, table_name)) }}
{%- endmacro %}

{% macro default__source_file_stamps(source_name, table_name) -%}
(select cast(null as string) as filename, cast(null as bigint) as size, cast(null as timestamp) as last_modified)
{%- endmacro %}

{% macro duckdb__source_file_stamps(source_name, table_name) -%}
(select filename, size, last_modified from read_blob('{{ source_path(source_name, table_name) }}'))
{%- endmacro %}

{#- source_files_to_read(source_name, table_name): in an incremental run on DuckDB, the files (sorted) whose rows
    the model does not hold with their current size and time: new or changed files (a header-only file, which
    gives no row, is always among them); none otherwise (read every file). -#}
{% macro source_files_to_read(source_name, table_name) -%}
  {%- if not execute or target.type != 'duckdb' or not is_incremental() -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if not source_files_stamped() -%}
    {{ exceptions.raise_compiler_error(this.identifier ~ " was made by an older evalhouse (no file_size, "
       ~ "file_modified): build it with --full-refresh (evalhouse build drops such a table itself)") }}
  {%- endif -%}
  {%- set sql -%}
select files.filename
from {{ source_file_stamps(source_name, table_name) }} as files
where not exists (
    select 1 from {{ this }} as kept
    where kept.filename = files.filename
      and kept.file_size = files.size
      and kept.file_modified = files.last_modified)
order by files.filename
  {%- endset -%}
  {{ return(run_query(sql).columns[0].values() | list) }}
{%- endmacro %}

{#- source_files_delete(source_name, table_name): pre-hook of such a model: in an incremental run, delete the rows
    of files that are gone or whose size or time changed (they are read again). -#}
{% macro source_files_delete(source_name, table_name) -%}
  {%- if target.type == 'duckdb' and is_incremental() -%}
delete from {{ this }} where not exists (
    select 1 from {{ source_file_stamps(source_name, table_name) }} as files
    where files.filename = {{ this }}.filename
      and files.size = {{ this }}.file_size
      and files.last_modified = {{ this }}.file_modified)
  {%- endif -%}
{%- endmacro %}

{#- source_files_stamped(): the model's stored table has the file_size and file_modified columns (a table made by
    an older evalhouse has not: source_files_to_read stops with a compile error asking for --full-refresh;
    evalhouse build drops such a table before dbt runs, cli/suites.py _stale_caches). -#}
{% macro source_files_stamped() -%}
  {%- set relation = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
  {%- if relation is none -%}{{ return(false) }}{%- endif -%}
  {%- set names = adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list -%}
  {{ return('file_size' in names and 'file_modified' in names) }}
{%- endmacro %}
