{#-
  read_source(source_name, table_name)
  The one reader of raw files: a dbt source whose YAML `meta` gives `path` (relative to the project; may hold a glob,
  and `{landing}` for var('landing_dir'), `{var:NAME}` for var('NAME'); `{landing}` is where `evalhouse suite land` writes the checked suites) and `format`
  (parquet, csv, jsonl, json, or blob: one row per file with `filename` and its bytes as `content`, for files a
  Python model parses itself; default from the path's extension). A glob that matches no file is an error except
  for blob (no row). CSV options: `all_varchar` (every column as text), `filename` (add the file name as column
  `filename`), `union_by_name`, `delim`, `columns` (name -> type), and for a file read exactly as declared:
  `auto_detect: false` (no sniffing), `quote`, `escape`, `null_padding` (a row or file lacking trailing columns
  reads them as NULL).
  The source() call records the lineage; the engine's way to read the file is chosen by adapter.dispatch.
-#}
{% macro read_source(source_name, table_name, files=none) -%}
  {%- set relation = source(source_name, table_name) -%}
  {%- set meta = source_meta(source_name, table_name) -%}
  {%- set path = source_path(source_name, table_name) -%}
  {%- set fmt = meta.get('format') or path.split('.')[-1] -%}
  {%- if files is not none -%}
    {#- only these files of the source (a CSV source on DuckDB: source_files_to_read gives them) -#}
    {%- if fmt != 'csv' or target.type != 'duckdb' -%}
      {{ exceptions.raise_compiler_error("read_source: files are read one by one only from a CSV source on DuckDB") }}
    {%- endif -%}
    {%- set meta = dict(meta, files=files) -%}
  {%- endif -%}
  {{ return(adapter.dispatch('read_source', 'evalhouse')(path, fmt, meta)) }}
{%- endmacro %}

{#- source_path(source_name, table_name): a declared source's meta.path with {landing} and {var:NAME} replaced. -#}
{% macro source_path(source_name, table_name) -%}
  {%- set meta = source_meta(source_name, table_name) -%}
  {%- set ns = namespace(path=(meta.get('path') or '') | replace('{landing}', var('landing_dir'))) -%}
  {%- for name in modules.re.findall('[{]var:([a-z_]+)[}]', ns.path) -%}
    {%- set ns.path = ns.path | replace('{var:' ~ name ~ '}', var(name)) -%}
  {%- endfor -%}
  {{ return(ns.path) }}
{%- endmacro %}

{% macro default__read_source(path, fmt, meta) -%}
  {{ exceptions.raise_compiler_error("read_source is not implemented for adapter " ~ adapter.type()) }}
{%- endmacro %}

{% macro duckdb__read_source(path, fmt, meta) -%}
  {%- if fmt == 'parquet' -%}
read_parquet('{{ path }}'{% if meta.get('filename') %}, filename = true{% endif %}{% if meta.get('union_by_name') %}, union_by_name = true{% endif %})
  {%- elif fmt == 'csv' -%}
read_csv(
    {%- if meta.get('files') is not none -%}
      [{%- for f in meta.get('files') %}'{{ f | replace("'", "''") }}'{% if not loop.last %}, {% endif %}{% endfor -%}]
    {%- else -%}
      '{{ path }}'
    {%- endif %}, header = true
    {%- if meta.get('all_varchar') %}, all_varchar = true{% endif %}
    {%- if meta.get('columns') %}, columns = { {%- for name, type in meta.get('columns').items() %}'{{ name }}': '{{ type }}'{% if not loop.last %}, {% endif %}{% endfor -%} }{% endif %}
    {%- if meta.get('auto_detect') is false %}, auto_detect = false{% endif %}
    {%- if meta.get('delim') %}, delim = '{{ meta.get('delim') }}'{% endif %}
    {%- if meta.get('quote') %}, quote = '{{ meta.get('quote') }}'{% endif %}
    {%- if meta.get('escape') %}, escape = '{{ meta.get('escape') }}'{% endif %}
    {%- if meta.get('null_padding') %}, null_padding = true{% endif %}
    {%- if meta.get('filename') %}, filename = true{% endif %}
    {%- if meta.get('union_by_name') %}, union_by_name = true{% endif %})
  {%- elif fmt in ('jsonl', 'json') -%}
read_json('{{ path }}', format = '{{ 'newline_delimited' if fmt == 'jsonl' else 'auto' }}'
    {%- if meta.get('columns') %}, columns = { {%- for name, type in meta.get('columns').items() %}'{{ name }}': '{{ type }}'{% if not loop.last %}, {% endif %}{% endfor -%} }{% endif %}
    {%- if meta.get('filename') %}, filename = true{% endif %})
  {%- elif fmt == 'blob' -%}
read_blob('{{ path }}')
  {%- else -%}
  {{ exceptions.raise_compiler_error("read_source: unknown format '" ~ fmt ~ "' for " ~ path) }}
  {%- endif -%}
{%- endmacro %}

{% macro spark__read_source(path, fmt, meta) -%}
  {%- if fmt == 'parquet' -%}
parquet.`{{ path }}`
  {%- elif fmt == 'csv' -%}
{{ spark_csv_relation(path, meta) }}
  {%- elif fmt in ('jsonl', 'json') -%}
json.`{{ path }}`
  {%- elif fmt == 'blob' -%}
(select path as filename, content from binaryFile.`{{ path }}`)
  {%- else -%}
  {{ exceptions.raise_compiler_error("read_source: unknown format '" ~ fmt ~ "' for " ~ path) }}
  {%- endif -%}
{%- endmacro %}

{#- source_meta(source_name, table_name): the `meta` of a declared source table (a placeholder while parsing). -#}
{% macro source_meta(source_name, table_name) -%}
  {%- if not execute -%}
    {{ return({'path': '__parse_time__', 'format': 'parquet'}) }}
  {%- endif -%}
  {%- for node in graph.sources.values() -%}
    {%- if node.source_name == source_name and node.name == table_name -%}
      {%- set meta = node.meta or node.config.meta or {} -%}
      {%- if not meta.get('path') -%}
        {{ exceptions.raise_compiler_error("source " ~ source_name ~ "." ~ table_name ~ " has no meta.path") }}
      {%- endif -%}
      {{ return(meta) }}
    {%- endif -%}
  {%- endfor -%}
  {{ exceptions.raise_compiler_error("unknown source " ~ source_name ~ "." ~ table_name) }}
{%- endmacro %}

{#- spark_csv_relation(path, meta): Spark's reading of read_source's CSV files, as DuckDB's read_csv reads them:
    header row, RFC 4180 quoting ("" inside quotes), fields over several lines, every column as text, the union of
    the files' columns by name (a file without a column reads it as NULL, and so does a column of meta.columns that
    no file has, e.g. the optional locale columns of decisions.cases) and `filename` as the path the glob
    matched (relative when the glob is). Spark SQL cannot pass options to csv.`path`, so each matched file becomes
    an external table (evalhouse_src_<md5 of the path>_<n>, recreated at every build) and the relation is their union.
    While dbt parses (execute false) it renders a placeholder. -#}
{% macro spark_csv_relation(path, meta) -%}
  {%- if not execute -%}{{ return('(select 1 as placeholder)') }}{%- endif -%}
  {%- set files = run_query("select distinct input_file_name() as f from text.`" ~ path ~ "`").columns[0].values() | sort -%}
  {%- set prefix = path.split('*')[0] -%}
  {%- set ns = namespace(columns=[], tables=[]) -%}
  {%- for uri in files -%}
    {%- set table = target.schema ~ '.evalhouse_src_' ~ local_md5(path) ~ '_' ~ loop.index -%}
    {%- do run_query('drop table if exists ' ~ table) -%}
    {%- do run_query("create table " ~ table ~ " using csv options (path '" ~ uri ~ "', header 'true', multiLine 'true', quote '\"', escape '\"', inferSchema 'false', mode 'PERMISSIVE')") -%}
    {%- set names = run_query('select * from ' ~ table ~ ' limit 0').column_names -%}
    {%- for name in names if name not in ns.columns -%}{%- do ns.columns.append(name) -%}{%- endfor -%}
    {%- set local = uri.replace('file://', '').replace('file:', '') -%}
    {%- set rel = (prefix ~ local.split('/' ~ prefix, 1)[1]) if (prefix and not prefix.startswith('/') and ('/' ~ prefix) in local) else local -%}
    {%- do ns.tables.append((table, names, rel)) -%}
  {%- endfor -%}
  {%- if not ns.tables -%}
    {{ exceptions.raise_compiler_error("read_source: no file matches " ~ path) }}
  {%- endif -%}
  {#- a column the source declares (meta.columns) that no file has reads as NULL, as DuckDB's null_padding gives it -#}
  {%- for name in (meta.get('columns') or {}).keys() if name not in ns.columns -%}{%- do ns.columns.append(name) -%}{%- endfor -%}
(
  {%- for table, names, rel in ns.tables %}
    select
      {%- for name in ns.columns %} {% if name in names %}cast(`{{ name }}` as string){% else %}cast(null as string){% endif %} as `{{ name }}`,{% endfor %}
      {% if meta.get('filename') %}'{{ rel }}'{% else %}cast(null as string){% endif %} as filename
    from {{ table }}
    {% if not loop.last %}union all{% endif %}
  {%- endfor %}
)
{%- endmacro %}
