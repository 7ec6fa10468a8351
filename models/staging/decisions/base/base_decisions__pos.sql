-- Raw POS rows of the synthetic cases (source decisions.pos: pack/cases/<case>/pos.csv), read file by file with the
-- delimiter and number locale base_decisions__case_files lists for the file (decisions_read_case_csv, never
-- sniffed): every column as text, extra_fields, the exact DECIMAL(38, 6) of quantity, unit_price and unit_cost in
-- the case's locale (NULL when empty or unreadable) and source_row, the row's number in its file. A file that
-- cannot be read is not here. Typed by stg_decisions__pos_rows. View: streams at any size.
-- On Spark a table: the metastore (Derby) keeps a view's text in 32,700 characters, less than one branch per file.
{{ config(materialized=('view' if target.type == 'duckdb' else 'table')) }}
select *
from {{ decisions_read_case_csv('pos',
    ['date', 'store_id', 'channel', 'sku', 'quantity', 'unit_price', 'unit_cost', 'promo_flag'],
    ['quantity', 'unit_price', 'unit_cost']) }}
