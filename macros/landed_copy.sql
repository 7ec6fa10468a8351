{#-
  Landed copies: int_responses and int_gold, the suites' largest tables (every reply text twice, as text and as raw
  output; every gold phrase and fact), each a copy of one landed file (stg_suites__responses, stg_suites__gold).
  Copying them took 5.0 and 2.8 s of a 20 s `dbt run -s +fct_first_filter_by_run` at a million replies even when no
  suite had changed. On DuckDB they are incremental and kept while what they copy is the same:
    landed_copy_fingerprint(table_name): the md5 of the landed file's bytes (landed_file_hash), of the staging
      view's SQL as this run created it (its casts and the file it reads) and of the model's compiled SQL (the
      macros it calls included; without landed_copy_filter's clause, which only an incremental run has); NULL when
      the staging view is not found (then the copy is made again on every run);
    landed_copy_prepare(table_name), the pre-hooks: the fingerprint, computed before the copy, into a temporary
      table; in an incremental run, every row deleted unless the fingerprint stored on the table (its comment) is
      that one (none is stored on a table an older evalhouse made, or after a run that failed);
    the model (landed_copy_filter) then copies every row into an empty table and nothing into a kept one;
    landed_copy_mark(table_name), the post-hook: stores the fingerprint computed before the copy as the table's
      comment (so a file replaced during the copy is copied again by the next run, never kept unseen).
  A kept copy holds exactly the rows a full copy would: the rows come from the landed file through the staging view
  and this model, and all three are in the fingerprint. --full-refresh copies again. A change of the model's
  columns fails the incremental run (on_schema_change 'fail': dbt names the model and says to run --full-refresh);
  `evalhouse build` drops a copy whose columns are not its contract's first (evalhouse.cli.suites._stale_caches).
  On other engines they are tables and the hooks are empty.
-#}

{% macro landed_copy_materialized() -%}
  {{ return('incremental' if target.type == 'duckdb' else 'table') }}
{%- endmacro %}

{#- landed_copy_filter(): the model's where clause: in an incremental run, copy only into an empty table. -#}
{% macro landed_copy_filter() -%}
  {%- if is_incremental() -%}
where not exists (select 1 from {{ this }})
  {%- endif -%}
{%- endmacro %}

{% macro landed_copy_prepare(table_name) -%}
  {{ return(adapter.dispatch('landed_copy_prepare', 'evalhouse')(table_name)) }}
{%- endmacro %}
{% macro default__landed_copy_prepare(table_name) -%}
{%- endmacro %}
{% macro duckdb__landed_copy_prepare(table_name) -%}
create or replace temporary table landed_copy_{{ table_name }} as
select {{ landed_copy_fingerprint(table_name) }} as fingerprint;
  {%- if is_incremental() %}
delete from {{ this }}
where (select stored.comment from duckdb_tables() as stored
       where stored.database_name = '{{ this.database }}' and stored.schema_name = '{{ this.schema }}'
         and stored.table_name = '{{ this.identifier }}')
      is distinct from (select fingerprint from landed_copy_{{ table_name }})
   or (select fingerprint from landed_copy_{{ table_name }}) is null
  {%- endif -%}
{%- endmacro %}

{% macro landed_copy_mark(table_name) -%}
  {{ return(adapter.dispatch('landed_copy_mark', 'evalhouse')(table_name)) }}
{%- endmacro %}
{% macro default__landed_copy_mark(table_name) -%}
{%- endmacro %}
{% macro duckdb__landed_copy_mark(table_name) -%}
  {%- if execute -%}
    {%- set fingerprint = run_query('select fingerprint from landed_copy_' ~ table_name).columns[0].values()[0] -%}
comment on table {{ this }} is '{{ (fingerprint or '') | replace("'", "''") }}'
  {%- endif -%}
{%- endmacro %}

{#- a scalar DuckDB expression (used by the duckdb__ hooks only) -#}
{% macro landed_copy_fingerprint(table_name) -%}
({{ landed_file_hash('suites', table_name) }}
 || '|' || (select md5(staged.sql) from duckdb_views() as staged
            where staged.database_name = '{{ this.database }}' and staged.schema_name = '{{ this.schema }}'
              and staged.view_name = 'stg_suites__{{ table_name }}')
 || '|{{ local_md5((model.compiled_code or model.raw_code) | replace(landed_copy_filter(), '')) }}')
{%- endmacro %}
