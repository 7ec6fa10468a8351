-- The real case R01 (UCI Online Retail), per period (base, current, and all 13 weeks as 'all'): what each quirk
-- amounts to, in lines and GBP (exact DECIMAL(38, 12); value = quantity x unit_price). Shows the effect of every
-- treatment choice; merchandise_revenue is the figure used for revenue_delta.
with lines as (
    select * from {{ ref('int_decisions__uci_lines') }}
),

periods as (
    select period, period_start, period_end from {{ ref('int_decisions__periods') }} where case_id = 'R01'
    union all
    select 'all', cast(min(sale_date) as date), cast(max(sale_date) as date) from lines
)

select
    periods.period,
    periods.period_start,
    periods.period_end,
    count(*) as n_lines,
    cast(sum(case when lines.is_merchandise then lines.line_value else 0 end) as decimal(38, 12)) as merchandise_revenue,
    sum(case when lines.is_cancellation then 1 else 0 end) as n_cancellation_lines,
    cast(sum(case when lines.is_cancellation and lines.is_merchandise then lines.line_value else 0 end) as decimal(38, 12))
        as cancellation_value_netted,
    sum(case when not lines.is_merchandise then 1 else 0 end) as n_non_merchandise_lines,
    cast(sum(case when not lines.is_merchandise then lines.line_value else 0 end) as decimal(38, 12)) as non_merchandise_value_excluded,
    sum(case when lines.is_zero_price then 1 else 0 end) as n_zero_price_lines,
    sum(case when lines.is_stock_adjustment then 1 else 0 end) as n_stock_adjustment_lines,
    sum(case when lines.duplicate_rank > 1 then 1 else 0 end) as n_exact_duplicate_repeats,
    cast(sum(case when lines.duplicate_rank > 1 and lines.is_merchandise then lines.line_value else 0 end) as decimal(38, 12))
        as duplicate_repeat_value_kept,
    sum(case when lines.customer_id is null then 1 else 0 end) as n_lines_without_customer
from lines
inner join periods on lines.sale_date between periods.period_start and periods.period_end
group by periods.period, periods.period_start, periods.period_end
