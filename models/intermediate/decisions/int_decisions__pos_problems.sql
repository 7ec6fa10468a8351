-- Every raw POS row that does not parse, with its row number in its file (source_row of stg_decisions__pos_rows:
-- 1 = first row after the header), column and raw text; and every POS file that cannot be read at all (source_row
-- 0 = the header, problem_column 'header', raw_text = the reason).
with row_problems as (
    select
        case_id,
        source_file,
        source_row,
        row_problem,
        case row_problem
            when 'too_many_fields' then 'extra_fields'
            when 'empty_quantity' then 'quantity' when 'unreadable_quantity' then 'quantity'
            when 'unreadable_unit_price' then 'unit_price' when 'unreadable_unit_cost' then 'unit_cost'
            when 'unreadable_date' then 'date' when 'unknown_channel' then 'channel'
            when 'empty_store_id' then 'store_id' when 'empty_sku' then 'sku'
            when 'unreadable_promo_flag' then 'promo_flag'
        end as problem_column,
        case row_problem
            when 'too_many_fields' then extra_fields
            when 'empty_quantity' then quantity_text when 'unreadable_quantity' then quantity_text
            when 'unreadable_unit_price' then unit_price_text when 'unreadable_unit_cost' then unit_cost_text
            when 'unreadable_date' then date_text when 'unknown_channel' then channel
            when 'unreadable_promo_flag' then promo_flag_text
        end as raw_text
    from {{ ref('stg_decisions__pos_rows') }}
    where row_problem is not null
),

file_problems as (
    select
        case_id,
        source_file,
        cast(0 as integer)     as source_row,
        'unreadable_file'      as row_problem,
        'header'               as problem_column,
        file_problem           as raw_text
    from {{ ref('stg_decisions__case_files') }}
    where file_kind = 'pos' and file_problem is not null
)

select * from row_problems
union all
select * from file_problems
