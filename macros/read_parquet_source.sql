{#-
  read_parquet_source(source_name, table_name)
  A bundled Parquet file declared as a dbt source (YAML `meta: {path: data/<suite>/<file>.parquet}`, relative to the
  project). The source() call records the lineage; the dispatch picks the engine's way to read the file, so a Spark
  target only needs its own spark__read_parquet_source.
-#}
{% macro read_parquet_source(source_name, table_name) -%}
  {%- set relation = source(source_name, table_name) -%}
  {%- set path = parquet_source_path(source_name, table_name) -%}
  {{ return(adapter.dispatch('read_parquet_source', 'evalhouse')(path)) }}
{%- endmacro %}

{% macro default__read_parquet_source(path) -%}
  {{ exceptions.raise_compiler_error("read_parquet_source is not implemented for adapter " ~ adapter.type()) }}
{%- endmacro %}

{% macro duckdb__read_parquet_source(path) -%}
read_parquet('{{ path }}')
{%- endmacro %}

{% macro spark__read_parquet_source(path) -%}
parquet.`{{ path }}`
{%- endmacro %}

{#- The meta.path of a source table (only known once the graph is loaded; a placeholder while parsing). -#}
{% macro parquet_source_path(source_name, table_name) -%}
  {%- if not execute -%}
    {{ return('__parse_time__') }}
  {%- endif -%}
  {%- for node in graph.sources.values() -%}
    {%- if node.source_name == source_name and node.name == table_name -%}
      {%- set meta = node.meta or node.config.meta or {} -%}
      {%- if not meta.get('path') -%}
        {{ exceptions.raise_compiler_error("source " ~ source_name ~ "." ~ table_name ~ " has no meta.path") }}
      {%- endif -%}
      {{ return(meta.get('path')) }}
    {%- endif -%}
  {%- endfor -%}
  {{ exceptions.raise_compiler_error("unknown source " ~ source_name ~ "." ~ table_name) }}
{%- endmacro %}
