-- Per case x period: revenue, cost of goods, gross margin, net online units and contribution, exact DECIMAL(38, 12).
-- Synthetic cases: every parsed POS row in the period (returns are negative quantities). Cases with any problem row
-- get no totals (their source is invalid). R01 (UCI): merchandise lines only; no cost -> cogs, margin, contribution
-- NULL. No division and no avg anywhere on this path; products and differences exact on every engine
-- (decisions_exact_product, decisions_exact_difference).
with periods as (
    select * from {{ ref('int_decisions__periods') }}
),

status as (
    select * from {{ ref('int_decisions__case_source_status') }}
),

budget as (
    select case_id, max(case when metric = 'online_fulfilment_cost_per_unit' then amount end) as fulfilment_cost
    from {{ ref('stg_decisions__budget') }}
    group by case_id
),

synthetic as (
    select
        agg.case_id,
        agg.period,
        cast(sum(agg.revenue) as decimal(38, 12))                                            as revenue,
        cast(sum(agg.cogs) as decimal(38, 12))                                               as cogs,
        cast(sum(case when agg.channel = 'online' then agg.net_units else 0 end) as decimal(38, 12)) as online_units,
        sum(agg.n_rows)                                                                      as n_rows
    from {{ ref('int_decisions__pos_aggregates') }} as agg
    inner join status on status.case_id = agg.case_id and status.source_valid
    where agg.period is not null
    group by agg.case_id, agg.period
),

real_data as (
    select
        uci.case_id,
        periods.period,
        cast(sum(case when uci.is_merchandise then {{ decisions_exact_product('uci.quantity', 'uci.unit_price') }} else 0 end) as decimal(38, 12)) as revenue,
        cast(null as decimal(38, 12))                                                as cogs,
        cast(null as decimal(38, 12))                                                as online_units,
        count(*)                                                                     as n_rows
    from {{ ref('stg_decisions__uci_rows') }} as uci
    inner join periods
        on periods.case_id = uci.case_id
       and uci.sale_date between periods.period_start and periods.period_end
    group by uci.case_id, periods.period
),

unioned as (
    select * from synthetic
    union all
    select * from real_data
)

select
    unioned.case_id,
    unioned.period,
    unioned.n_rows,
    unioned.revenue,
    unioned.cogs,
    unioned.online_units,
    {{ decisions_exact_difference('unioned.revenue', 'unioned.cogs') }}                               as gross_margin,
    {{ decisions_exact_difference(decisions_exact_difference('unioned.revenue', 'unioned.cogs'),
                                  decisions_exact_product('unioned.online_units', 'budget.fulfilment_cost')) }} as contribution
from unioned
left join budget on budget.case_id = unioned.case_id
