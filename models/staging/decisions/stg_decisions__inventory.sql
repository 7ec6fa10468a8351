-- Inventory per store x SKU for the current period (pack/cases/<case>/inventory.csv), as base_decisions__inventory
-- reads it with the case's delimiter and number locale; store IDs stay text ("007").
with raw as (
    select * from {{ ref('base_decisions__inventory') }}
)

select
    {{ parent_dir_name('source_file') }}  as case_id,
    source_file,
    source_row,
    store_id,
    sku,
    opening_units_value                        as opening_units,
    received_units_value                       as received_units,
    counted_closing_units_value                as counted_closing_units,
    unit_cost_value                            as unit_cost,
    case
        when extra_fields is not null then 'too_many_fields'
        when opening_units_value is null then 'unreadable_opening_units'
        when received_units_value is null then 'unreadable_received_units'
        when counted_closing_units_value is null then 'unreadable_counted_closing_units'
        when unit_cost_value is null then 'unreadable_unit_cost'
    end as row_problem
from raw
