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
