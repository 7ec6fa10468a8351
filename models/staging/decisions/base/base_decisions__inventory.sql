-- Inventory rows per case (source decisions.inventory: pack/cases/<case>/inventory.csv), read file by file with the
-- delimiter and number locale base_decisions__case_files lists for the file (decisions_read_case_csv): every column
-- as text, extra_fields, the exact DECIMAL(38, 6) of the unit and cost columns in the case's locale and source_row.
-- Typed by stg_decisions__inventory.
-- On Spark a table: the metastore (Derby) keeps a view's text in 32,700 characters, less than one branch per file.
{{ config(materialized=('view' if target.type == 'duckdb' else 'table')) }}
select *
from {{ decisions_read_case_csv('inventory',
    ['store_id', 'sku', 'opening_units', 'received_units', 'counted_closing_units', 'unit_cost'],
    ['opening_units', 'received_units', 'counted_closing_units', 'unit_cost']) }}
