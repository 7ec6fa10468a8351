-- The one scan of the raw POS rows: per case x file x period x store x SKU x channel, exact sums of the parsed rows
-- and the count of rows that do not parse. Every later model reads this small table, not the raw files.
-- period is NULL for rows outside both periods (or without a readable date). Sums are DECIMAL(38, 12), no division; the
-- products exact on every engine (decisions_exact_product).
select
    pos.case_id,
    pos.source_file,
    periods.period,
    pos.store_id,
    pos.sku,
    pos.channel,
    count(*)                                                                                         as n_rows,
    count(pos.row_problem)                                                                           as n_problem_rows,
    cast(sum(case when pos.row_problem is null then {{ decisions_exact_product('pos.quantity', 'pos.unit_price') }} end) as decimal(38, 12)) as revenue,
    cast(sum(case when pos.row_problem is null then {{ decisions_exact_product('pos.quantity', 'pos.unit_cost') }} end) as decimal(38, 12))  as cogs,
    cast(sum(case when pos.row_problem is null then pos.quantity end) as decimal(38, 12))                 as net_units
from {{ ref('stg_decisions__pos_rows') }} as pos
left join {{ ref('int_decisions__periods') }} as periods
    on periods.case_id = pos.case_id
   and pos.sale_date between periods.period_start and periods.period_end
group by pos.case_id, pos.source_file, periods.period, pos.store_id, pos.sku, pos.channel
