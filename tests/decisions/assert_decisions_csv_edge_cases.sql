-- CSV edge cases as read by the warehouse (each selected row is a failure):
-- C02 has a UTF-8 BOM and CRLF line ends: no problem row, first data row dated 2024-09-02, promo flags clean;
-- C05 keeps store IDs as text: "007" and "7" are two stores; C04: "¥1,200" x 2 = 2400 and "-¥350" = -350;
-- C03: the quoted "1,200" is 1200; C07: the empty quantity is NULL and flagged (row 6), never 0.
select 'C02 has problem rows' as failure from {{ ref('stg_decisions__pos_rows') }}
where case_id = 'C02' and row_problem is not null
having count(*) > 0
union all
select 'C02 promo flags not clean' from {{ ref('stg_decisions__pos_rows') }}
where case_id = 'C02' and promo_flag_text not in ('Y', 'N')
having count(*) > 0
union all
select 'C05 stores not kept as text' from (
    select count(distinct store_id) filter (where store_id in ('007', '7')) as n
    from {{ ref('stg_decisions__pos_rows') }} where case_id = 'C05'
) where n <> 2
union all
select 'C04 yen 1,200 x 2 is not 2400' from (
    select quantity * unit_price as line_revenue from {{ ref('stg_decisions__pos_rows') }}
    where case_id = 'C04' and unit_price_text = '¥1,200' and quantity_text = '2' and date_text = '2024-10-04'
) where line_revenue <> 2400
union all
select 'C04 -¥350 is not -350' from (
    select unit_price from {{ ref('stg_decisions__pos_rows') }} where case_id = 'C04' and sku = 'CPN-350'
) where unit_price <> -350
union all
select 'C03 quoted thousands not 1200' from (
    select count(*) as n from {{ ref('stg_decisions__pos_rows') }}
    where case_id = 'C03' and unit_price_text = '1,200' and unit_price = 1200
) where n = 0
union all
select 'C07 empty quantity not NULL + flagged at row 6' from (
    select count(*) as n from {{ ref('int_decisions__pos_problems') }}
    where case_id = 'C07' and source_row = 6 and row_problem = 'empty_quantity' and problem_column = 'quantity'
) where n <> 1
union all
select 'C07 empty quantity became a number' from {{ ref('stg_decisions__pos_rows') }}
where case_id = 'C07' and row_problem = 'empty_quantity' and quantity is not null
union all
select 'C07 source not invalid' from {{ ref('int_decisions__case_source_status') }}
where case_id = 'C07' and source_valid
