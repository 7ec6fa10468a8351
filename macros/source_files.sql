{#-
  Reading an append-only folder of CSV files (the ratings store) incrementally: a model keeps, beside each row, a
  hash of its file's bytes (file_hash); an incremental run reads only the files that are new or whose bytes
  changed, and its pre-hook deletes the rows of files that changed or are gone. A full run (first build,
  --full-refresh, other engines) reads every file. The hash is of the content, not the size and modification time:
  an edit that keeps both (a same-size fix copied back with `cp -p` or `touch -r`) is still seen. DuckDB only
  (read_blob, hash); on other engines the model is a table and these macros read everything.
-#}

{#- source_file_stamps(source_name, table_name, files=none): a relation of the source's files (or of these files
    only): filename, file_hash (DuckDB's 64-bit hash of the file's bytes; every byte is read, about 1 s a GB). -#}
{% macro source_file_stamps(source_name, table_name, files=none) -%}
  {{ return(adapter.dispatch('source_file_stamps', 'evalhouse')(source_name, table_name, files)) }}
{%- endmacro %}

{% macro default__source_file_stamps(source_name, table_name, files=none) -%}
(select cast(null as string) as filename, cast(null as bigint) as file_hash)
{%- endmacro %}

{% macro duckdb__source_file_stamps(source_name, table_name, files=none) -%}
(select filename, hash(content) as file_hash from read_blob(
  {%- if files is not none -%}
    [{%- for f in files %}'{{ f | replace("'", "''") }}'{% if not loop.last %}, {% endif %}{% endfor -%}]
  {%- else -%}
    '{{ source_path(source_name, table_name) }}'
  {%- endif -%}))
{%- endmacro %}

{#- source_files_to_read(source_name, table_name): in an incremental run on DuckDB, the files (sorted) whose rows
    the model does not hold with their current file_hash: new or changed files (a header-only file, which gives no
    row, is always among them); none otherwise (read every file). -#}
{% macro source_files_to_read(source_name, table_name) -%}
  {%- if not execute or target.type != 'duckdb' or not is_incremental() -%}
    {{ return(none) }}
  {%- endif -%}
  {%- if not source_files_stamped() -%}
    {{ exceptions.raise_compiler_error(this.identifier ~ " was made by an older evalhouse (no file_hash): build "
       ~ "it with --full-refresh (evalhouse build drops such a table itself)") }}
  {%- endif -%}
  {%- set sql -%}
select files.filename
from {{ source_file_stamps(source_name, table_name) }} as files
where not exists (
    select 1 from {{ this }} as kept
    where kept.filename = files.filename
      and kept.file_hash = files.file_hash)
order by files.filename
  {%- endset -%}
  {{ return(run_query(sql).columns[0].values() | list) }}
{%- endmacro %}

{#- source_files_delete(source_name, table_name): pre-hook of such a model: in an incremental run, delete the rows
    of files that are gone or whose bytes changed (they are read again). -#}
{% macro source_files_delete(source_name, table_name) -%}
  {%- if target.type == 'duckdb' and is_incremental() -%}
delete from {{ this }} where not exists (
    select 1 from {{ source_file_stamps(source_name, table_name) }} as files
    where files.filename = {{ this }}.filename
      and files.file_hash = {{ this }}.file_hash)
  {%- endif -%}
{%- endmacro %}

{#- source_files_stamped(): the model's stored table has the file_hash column (a table made by an older evalhouse
    has not: source_files_to_read stops with a compile error asking for --full-refresh; evalhouse build drops such
    a table before dbt runs, cli/suites.py _stale_caches). -#}
{% macro source_files_stamped() -%}
  {%- set relation = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) -%}
  {%- if relation is none -%}{{ return(false) }}{%- endif -%}
  {%- set names = adapter.get_columns_in_relation(relation) | map(attribute='name') | map('lower') | list -%}
  {{ return('file_hash' in names) }}
{%- endmacro %}
