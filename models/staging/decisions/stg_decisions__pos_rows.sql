-- Raw POS rows of the synthetic cases (pack/cases/<case>/pos.csv) as base_decisions__pos reads them (text, with each
-- case's delimiter and number locale, never sniffed), typed exactly: amounts and quantities through
-- decisions_parse_amount into DECIMAL(38, 6). A row that does not parse keeps its text and gets row_problem (first
-- failing column); it is never turned into 0. A file that cannot be read at all is not here (its case is invalid,
-- see int_decisions__pos_problems). Grain: (source_file, source_row), the file and the row's number in it. View:
-- streams at any size.
with raw as (
    select * from {{ ref('base_decisions__pos') }}
),

typed as (
    select
        {{ parent_dir_name('source_file') }}     as case_id,
        source_file,
        source_row,
        date                                          as date_text,
        store_id,
        channel,
        sku,
        quantity                                      as quantity_text,
        unit_price                                    as unit_price_text,
        unit_cost                                     as unit_cost_text,
        promo_flag                                    as promo_flag_text,
        extra_fields,
        try_cast(trim(date) as date)                  as sale_date,
        quantity_value                                as quantity,
        unit_price_value                              as unit_price,
        unit_cost_value                               as unit_cost,
        case upper(trim(promo_flag)) when 'Y' then true when 'N' then false end as is_promo
    from raw
)

select
    *,
    case
        when extra_fields is not null then 'too_many_fields'
        when quantity_text is null or trim(quantity_text) = '' then 'empty_quantity'
        when quantity is null then 'unreadable_quantity'
        when unit_price is null then 'unreadable_unit_price'
        when unit_cost is null then 'unreadable_unit_cost'
        when sale_date is null then 'unreadable_date'
        when channel is null or channel not in ('online', 'offline') then 'unknown_channel'
        when store_id is null or trim(store_id) = '' then 'empty_store_id'
        when sku is null or trim(sku) = '' then 'empty_sku'
        when is_promo is null then 'unreadable_promo_flag'
    end as row_problem
from typed
