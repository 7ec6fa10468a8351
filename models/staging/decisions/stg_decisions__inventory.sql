-- Inventory per store x SKU for the current period (pack/cases/<case>/inventory.csv); store IDs stay text ("007").
with raw as (
    select * from {{ decisions_read_csv_text(decisions_path('inventory_glob'),
        ['store_id', 'sku', 'opening_units', 'received_units', 'counted_closing_units', 'unit_cost']) }}
)

select
    {{ decisions_parent_dir('filename') }}                 as case_id,
    filename                                               as source_file,
    store_id,
    sku,
    {{ decisions_parse_amount('opening_units') }}          as opening_units,
    {{ decisions_parse_amount('received_units') }}         as received_units,
    {{ decisions_parse_amount('counted_closing_units') }}  as counted_closing_units,
    {{ decisions_parse_amount('unit_cost') }}              as unit_cost,
    case
        when {{ decisions_parse_amount('opening_units') }} is null then 'unreadable_opening_units'
        when {{ decisions_parse_amount('received_units') }} is null then 'unreadable_received_units'
        when {{ decisions_parse_amount('counted_closing_units') }} is null then 'unreadable_counted_closing_units'
        when {{ decisions_parse_amount('unit_cost') }} is null then 'unreadable_unit_cost'
    end as row_problem
from raw
