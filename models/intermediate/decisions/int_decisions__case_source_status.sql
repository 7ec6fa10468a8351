-- Per case of the case index: its role, currency and periods; is the raw data valid for an exact recomputation?
-- Counts of rows and problems in POS, budget, inventory (a file that cannot be read at all counts as one problem),
-- the first problem as 'file: row N: column: problem'; and the P&L inputs that are not POS sums: the current budgets
-- and the unexplained inventory exposure (sum over store x SKU of |opening + received - net units sold in the
-- current period - counted closing| x unit cost, exact DECIMAL(38, 12)).
with cases as (
    select * from {{ ref('stg_decisions__cases') }}
),

pos as (
    select
        case_id,
        sum(n_rows)                                                     as n_pos_rows,
        sum(n_problem_rows)                                             as n_pos_problem_rows,
        sum(case when period is null then n_rows - n_problem_rows else 0 end) as n_pos_rows_outside_periods
    from {{ ref('int_decisions__pos_aggregates') }}
    group by case_id
),

budget as (
    select case_id, count(*) as n_budget_rows, count(row_problem) as n_budget_problem_rows
    from {{ ref('stg_decisions__budget') }}
    group by case_id
),

inventory as (
    select case_id, count(*) as n_inventory_rows, count(row_problem) as n_inventory_problem_rows
    from {{ ref('stg_decisions__inventory') }}
    group by case_id
),

files as (
    select
        case_id,
        count(file_problem)                                                          as n_unreadable_files,
        max(case when file_kind = 'budget' and file_problem is not null then 1 else 0 end) = 1    as budget_unreadable,
        max(case when file_kind = 'inventory' and file_problem is not null then 1 else 0 end) = 1 as inventory_unreadable
    from {{ ref('stg_decisions__case_files') }}
    group by case_id
),

budget_amounts as (
    select
        case_id,
        max(case when metric = 'revenue_budget' then amount end)      as revenue_budget,
        max(case when metric = 'gross_margin_budget' then amount end) as gross_margin_budget
    from {{ ref('stg_decisions__budget') }}
    group by case_id
),

sold as (
    select case_id, store_id, sku, sum(net_units) as net_units_sold
    from {{ ref('int_decisions__pos_aggregates') }}
    where period = 'current'
    group by case_id, store_id, sku
),

exposure as (
    select
        inv.case_id,
        cast(sum({{ decisions_exact_product(
            'abs(inv.opening_units + inv.received_units - coalesce(sold.net_units_sold, 0) - inv.counted_closing_units)',
            'inv.unit_cost') }}) as decimal(38, 12)) as unexplained_inventory_exposure
    from {{ ref('stg_decisions__inventory') }} as inv
    left join sold
        on sold.case_id = inv.case_id and sold.store_id = inv.store_id and sold.sku = inv.sku
    group by inv.case_id
),

uci as (
    select case_id, count(*) as n_pos_rows from {{ ref('stg_decisions__uci_rows') }} group by case_id
),

-- the problem rows of budget and inventory, with their row number in their file (source_row)
other_rows as (
    select case_id, source_file, source_row, row_problem, 'amount' as problem_column
    from {{ ref('stg_decisions__budget') }}
    where row_problem is not null
    union all
    select case_id, source_file, source_row, row_problem,
           case row_problem
               when 'too_many_fields' then 'extra_fields'
               else replace(row_problem, 'unreadable_', '')
           end
    from {{ ref('stg_decisions__inventory') }}
    where row_problem is not null
),

problems as (
    select case_id, source_file, source_row, problem_column, row_problem, raw_text
    from {{ ref('int_decisions__pos_problems') }}
    union all
    select case_id, source_file, source_row, problem_column, row_problem, null
    from other_rows
    union all
    select case_id, source_file, 0, 'header', 'unreadable_file', file_problem
    from {{ ref('stg_decisions__case_files') }}
    where file_problem is not null and file_kind <> 'pos'
),

first_problem as (
    select
        case_id,
        source_file || ': '
            || case when source_row = 0 then 'header' else 'row ' || cast(source_row as string) end
            || ': ' || problem_column || ': ' || row_problem
            || coalesce(' (' || raw_text || ')', '') as first_problem
    from problems
    qualify row_number() over (partition by case_id order by source_file, source_row, problem_column) = 1
)

select
    cases.case_id,
    cases.case_role,
    cases.currency,
    coalesce(pos.n_pos_rows, uci.n_pos_rows, 0)                    as n_pos_rows,
    coalesce(pos.n_pos_problem_rows, 0)                            as n_pos_problem_rows,
    coalesce(pos.n_pos_rows_outside_periods, 0)                    as n_pos_rows_outside_periods,
    coalesce(budget.n_budget_problem_rows, 0)                      as n_budget_problem_rows,
    coalesce(inventory.n_inventory_problem_rows, 0)                as n_inventory_problem_rows,
    coalesce(files.n_unreadable_files, 0)                          as n_unreadable_files,
    budget.n_budget_rows is not null or coalesce(files.budget_unreadable, false)       as has_budget,
    inventory.n_inventory_rows is not null or coalesce(files.inventory_unreadable, false) as has_inventory,
    cases.pos_file like '%.parquet'                                as is_real_data,
    coalesce(pos.n_pos_rows, uci.n_pos_rows, 0) > 0
        and coalesce(pos.n_pos_problem_rows, 0) = 0
        and coalesce(budget.n_budget_problem_rows, 0) = 0
        and coalesce(inventory.n_inventory_problem_rows, 0) = 0
        and coalesce(files.n_unreadable_files, 0) = 0              as source_valid,
    first_problem.first_problem,
    cases.base_start,
    cases.base_end,
    cases.current_start,
    cases.current_end,
    budget_amounts.revenue_budget,
    budget_amounts.gross_margin_budget,
    exposure.unexplained_inventory_exposure
from cases
left join pos on pos.case_id = cases.case_id
left join budget on budget.case_id = cases.case_id
left join inventory on inventory.case_id = cases.case_id
left join files on files.case_id = cases.case_id
left join uci on uci.case_id = cases.case_id
left join first_problem on first_problem.case_id = cases.case_id
left join budget_amounts on budget_amounts.case_id = cases.case_id
left join exposure on exposure.case_id = cases.case_id
