-- The six top-level P&L fields per case, recomputed exactly from the raw rows (scope: all SKUs, all stores,
-- online + offline, current 4 weeks vs base 4 weeks). recomputed_value is exact DECIMAL(38, 12); recomputed_cents is
-- for display only (half away from zero). recompute_status says why a value is missing and recomputed_value_reason
-- says it in words (the first bad file/row/column of an invalid case, or the period without POS rows).
with status as (
    select * from {{ ref('int_decisions__case_source_status') }}
),

totals as (
    select
        case_id,
        max(case when period = 'current' then revenue end)      as revenue_current,
        max(case when period = 'base' then revenue end)         as revenue_base,
        max(case when period = 'current' then gross_margin end) as gross_margin_current,
        max(case when period = 'base' then gross_margin end)    as gross_margin_base,
        max(case when period = 'current' then contribution end) as contribution_current,
        max(case when period = 'base' then contribution end)    as contribution_base,
        coalesce(max(case when period = 'current' then n_rows end), 0) as n_rows_current,
        coalesce(max(case when period = 'base' then n_rows end), 0)    as n_rows_base
    from {{ ref('int_decisions__period_totals') }}
    group by case_id
),

wide as (
    select
        status.case_id,
        status.currency,
        status.source_valid,
        status.is_real_data,
        status.has_budget,
        status.has_inventory,
        status.first_problem,
        coalesce(totals.n_rows_current, 0)                                                  as n_rows_current,
        coalesce(totals.n_rows_base, 0)                                                     as n_rows_base,
        status.base_start,
        status.base_end,
        status.current_start,
        status.current_end,
        {{ decisions_exact_difference('totals.revenue_current', 'totals.revenue_base') }}              as revenue_delta,
        {{ decisions_exact_difference('totals.gross_margin_current', 'totals.gross_margin_base') }}    as gross_margin_delta,
        {{ decisions_exact_difference('totals.contribution_current', 'totals.contribution_base') }}    as contribution_delta,
        {{ decisions_exact_difference('totals.revenue_current', 'status.revenue_budget') }}            as revenue_vs_budget,
        {{ decisions_exact_difference('totals.gross_margin_current', 'status.gross_margin_budget') }}  as gross_margin_vs_budget,
        status.unexplained_inventory_exposure
    from status
    left join totals on totals.case_id = status.case_id
),

fields as (
    {{ decisions_pnl_fields() }}
),

long as (
    select
        wide.case_id,
        wide.currency,
        fields.field_name,
        fields.field_order,
        case fields.field_name
            when 'revenue_delta' then wide.revenue_delta
            when 'gross_margin_delta' then wide.gross_margin_delta
            when 'contribution_delta' then wide.contribution_delta
            when 'revenue_vs_budget' then wide.revenue_vs_budget
            when 'gross_margin_vs_budget' then wide.gross_margin_vs_budget
            when 'unexplained_inventory_exposure' then wide.unexplained_inventory_exposure
        end as value_if_valid,
        case
            when not wide.source_valid then 'invalid_raw_rows'
            when wide.is_real_data and fields.field_name in ('gross_margin_delta', 'contribution_delta')
                then 'no_cost_in_source'
            when fields.field_name in ('revenue_vs_budget', 'gross_margin_vs_budget') and not wide.has_budget
                then 'no_budget_in_source'
            when fields.field_name = 'unexplained_inventory_exposure' and not wide.has_inventory
                then 'no_inventory_in_source'
            when wide.n_rows_current = 0 then 'no_pos_rows_in_period'
            when wide.n_rows_base = 0 and fields.field_name in ('revenue_delta', 'gross_margin_delta', 'contribution_delta')
                then 'no_pos_rows_in_period'
            else 'ok'
        end as recompute_status,
        wide.first_problem,
        case
            when wide.n_rows_current = 0
                then 'no POS rows in the current period (' || cast(wide.current_start as string) || ' to '
                     || cast(wide.current_end as string) || ')'
            else 'no POS rows in the base period (' || cast(wide.base_start as string) || ' to '
                 || cast(wide.base_end as string) || ')'
        end as empty_period_reason
    from wide
    cross join fields
)

select
    case_id,
    currency,
    field_name,
    field_order,
    recompute_status,
    case when recompute_status = 'ok' then value_if_valid end                                   as recomputed_value,
    case recompute_status
        when 'invalid_raw_rows' then 'invalid raw data: ' || coalesce(first_problem, 'no POS rows')
        when 'no_cost_in_source' then 'the source has no unit cost'
        when 'no_budget_in_source' then 'the case has no budget.csv'
        when 'no_inventory_in_source' then 'the case has no inventory.csv'
        when 'no_pos_rows_in_period' then empty_period_reason
    end                                                                                         as recomputed_value_reason,
    case when recompute_status = 'ok' then {{ decisions_round_cents('value_if_valid') }} end    as recomputed_cents
from long
