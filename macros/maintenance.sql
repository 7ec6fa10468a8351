{#-
  drop_dbt_tmp_relations(): drop every relation of the target database whose name contains '__dbt_tmp'. dbt-duckdb
  leaves the temporary table of an incremental Python model (int_text_checks__dbt_tmp<timestamp>) behind after each
  incremental run; without this the warehouse gains one such table per build. Run as an on-run-end hook. DuckDB
  only (the Python models are DuckDB-only, and other engines have no information_schema.tables of this form).
-#}
{% macro drop_dbt_tmp_relations() %}
  {%- if execute and target.type == 'duckdb' -%}
    {%- set leftovers = run_query(
        "select table_schema, table_name, table_type from information_schema.tables"
        ~ " where table_catalog = current_database() and position('__dbt_tmp' in table_name) > 0") -%}
    {%- for row in leftovers.rows -%}
      {%- do run_query("drop " ~ ("view" if row[2] == "VIEW" else "table") ~ " if exists \""
                       ~ row[0] ~ "\".\"" ~ row[1] ~ "\"") -%}
    {%- endfor -%}
  {%- endif -%}
  select 1
{% endmacro %}

{#-
  apply_memory_limit(): on-run-start hook: when EVALHOUSE_MEMORY_LIMIT is set (a DuckDB size, e.g. 3GB or 2500MiB),
  `set memory_limit` to it before any model runs, and log the limit DuckDB then reports. The setting is the
  database instance's, so it holds for every thread's connection of the run. Unset: DuckDB's own default (80 % of
  the machine's memory). What DuckDB cannot keep within the limit it spills to a temporary folder beside the
  database file; Python models' own memory is outside the limit. evalhouse build checks the value before dbt runs;
  here a value starting with '-' (DuckDB's "no limit", -0 included) stops the run with a compiler error naming the
  variable.
  DuckDB only; elsewhere (and when unset) a no-op `select 1`.
-#}
{% macro apply_memory_limit() %}
  {%- set limit = env_var('EVALHOUSE_MEMORY_LIMIT', '') | trim -%}
  {%- if execute and target.type == 'duckdb' and limit -%}
    {%- if limit.startswith('-') -%}
      {{ exceptions.raise_compiler_error("EVALHOUSE_MEMORY_LIMIT=" ~ limit ~ ": a size starting with '-' (DuckDB would"
                                         ~ " take it for no limit at all); unset the variable for DuckDB's default") }}
    {%- endif -%}
    {%- do run_query("set memory_limit = '" ~ limit | replace("'", "''") ~ "'") -%}
    {%- set applied = run_query("select current_setting('memory_limit')").columns[0].values()[0] -%}
    {{ log("DuckDB memory_limit: " ~ applied ~ " (EVALHOUSE_MEMORY_LIMIT=" ~ limit ~ ")", info=True) }}
  {%- endif -%}
  select 1
{% endmacro %}
