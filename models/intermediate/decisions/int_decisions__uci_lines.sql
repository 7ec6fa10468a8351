-- The real case R01 (UCI Online Retail): every invoice line with its quirk flags (stg_decisions__uci_rows), its value
-- (quantity x unit_price, exact DECIMAL(38, 12), GBP) and duplicate_rank: 1 for the first line (by source_line) of a
-- group of exact duplicates (same invoice, stock code, description, quantity, time, price, customer, country), 2.. for
-- the repeats.
select
    uci.*,
    row_number() over (partition by uci.invoice_no, uci.stock_code, uci.description, uci.quantity, uci.invoice_ts, uci.unit_price,
                                    uci.customer_id, uci.country order by uci.source_line) as duplicate_rank,
    cast({{ decisions_exact_product('uci.quantity', 'uci.unit_price') }} as decimal(38, 12)) as line_value
from {{ ref('stg_decisions__uci_rows') }} as uci
