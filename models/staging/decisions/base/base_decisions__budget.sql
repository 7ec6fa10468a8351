-- Budget rows per case (source decisions.budget: pack/cases/<case>/budget.csv), read file by file with the delimiter
-- and number locale base_decisions__case_files lists for the file (decisions_read_case_csv): metric and amount as
-- text, extra_fields, amount_value (exact DECIMAL(38, 6) in the case's locale) and source_row. Typed by
-- stg_decisions__budget.
-- On Spark a table: the metastore (Derby) keeps a view's text in 32,700 characters, less than one branch per file.
{{ config(materialized=('view' if target.type == 'duckdb' else 'table')) }}
select *
from {{ decisions_read_case_csv('budget', ['metric', 'amount'], ['amount']) }}
