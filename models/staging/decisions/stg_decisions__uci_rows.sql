-- The real case R01: UCI Online Retail invoice lines (compact Parquet copy, typed: unit_price DECIMAL(10,3)).
-- Flags for each quirk; nothing is dropped here (the treatment is in int_decisions__period_totals).
with src as (
    select * from {{ read_source('decisions', 'uci_pos') }}
)

select
    'R01'                                                      as case_id,
    source_line,
    invoice_no,
    stock_code,
    description,
    cast(quantity as decimal(38, 6))                           as quantity,
    cast(unit_price as decimal(38, 6))                         as unit_price,
    invoice_ts,
    cast(invoice_ts as date)                                   as sale_date,
    customer_id,
    country,
    {{ regex_full_match('stock_code', '[0-9]{5}[A-Za-z]*') }} as is_merchandise,
    invoice_no like 'C%'                                       as is_cancellation,
    unit_price = 0                                             as is_zero_price,
    quantity < 0 and invoice_no not like 'C%'                  as is_stock_adjustment,
    count(*) over (partition by invoice_no, stock_code, description, quantity, invoice_ts, unit_price,
                                customer_id, country) > 1     as is_in_exact_duplicate_group
from src
