{#- spark__load_csv_rows(model, agate_table): dbt-spark's seed loader, fixed (../shared/SPARK.md section 2).
    dbt-spark 1.11.0 binds every value as '{value}' with no escaping on the session method: an empty cell becomes the
    string 'None', a quote in a text breaks the statement, a backslash is halved, and a number without column_types
    goes through a Python float (12345678901234.5678 -> ...568). This override renders each value itself:
    cast(null as T) for an empty cell, otherwise the exact text of the value (a Decimal as written, booleans as
    true/false) as a Spark string literal with \ and ' escaped, cast to the column's type. A bare varchar type
    (which Spark refuses without a length) is read as string. python/tests/test_spark_seed_fix.py checks it. -#}
{% macro spark__load_csv_rows(model, agate_table) %}
  {%- set batch_size = get_batch_size() -%}
  {%- set column_override = model['config'].get('column_types', {}) -%}
  {%- set types = [] -%}
  {%- for col_name in agate_table.column_names -%}
    {%- set type = column_override.get(col_name, adapter.convert_type(agate_table, loop.index0)) -%}
    {%- do types.append('string' if type | lower | trim == 'varchar' else type) -%}
  {%- endfor -%}
  {%- set statements = [] -%}
  {%- for chunk in agate_table.rows | batch(batch_size) -%}
    {%- set sql -%}
insert into {{ this.render() }} values
      {%- for row in chunk %}
  ({%- for value in row -%}
    {{ spark_seed_literal(value, types[loop.index0]) }}{%- if not loop.last %}, {% endif -%}
  {%- endfor -%}){%- if not loop.last %},{% endif -%}
      {%- endfor %}
    {%- endset -%}
    {%- do adapter.add_query(sql, abridge_sql_log=True) -%}
    {%- if loop.index0 == 0 -%}{%- do statements.append(sql) -%}{%- endif -%}
  {%- endfor -%}
  {{ return(statements[0] if statements else '') }}
{% endmacro %}

{#- spark_seed_literal(value, type): one seed cell as a typed Spark SQL literal (see spark__load_csv_rows). -#}
{% macro spark_seed_literal(value, type) -%}
  {%- if value is none -%}
cast(null as {{ type }})
  {%- else -%}
    {%- if value is sameas true or value is sameas false -%}
      {%- set text = 'true' if value else 'false' -%}
    {%- elif value.isoformat is defined -%}
      {%- set text = value.isoformat(' ') if value.hour is defined else value.isoformat() -%}
    {%- else -%}
      {%- set text = value | string -%}
    {%- endif -%}
cast('{{ text | replace("\\", "\\\\") | replace("'", "\\'") }}' as {{ type }})
  {%- endif -%}
{%- endmacro %}
