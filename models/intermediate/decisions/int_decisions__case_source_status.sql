-- Per case: is the raw data valid for an exact recomputation? Counts of rows and problems in POS, budget, inventory.
with cases as (
    select * from {{ ref('stg_decisions__cases') }}
),

pos as (
    select
        pos.case_id,
        count(*)                                                        as n_pos_rows,
        count(pos.row_problem)                                          as n_pos_problem_rows,
        sum(case when pos.row_problem is null and periods.period is null then 1 else 0 end) as n_pos_rows_outside_periods
    from {{ ref('stg_decisions__pos_rows') }} as pos
    left join {{ ref('int_decisions__periods') }} as periods
        on periods.case_id = pos.case_id
       and pos.sale_date between periods.period_start and periods.period_end
    group by pos.case_id
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

uci as (
    select case_id, count(*) as n_pos_rows from {{ ref('stg_decisions__uci_rows') }} group by case_id
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
    budget.n_budget_rows is not null                               as has_budget,
    inventory.n_inventory_rows is not null                         as has_inventory,
    cases.pos_file like '%.parquet'                                as is_real_data,
    coalesce(pos.n_pos_rows, uci.n_pos_rows, 0) > 0
        and coalesce(pos.n_pos_problem_rows, 0) = 0
        and coalesce(budget.n_budget_problem_rows, 0) = 0
        and coalesce(inventory.n_inventory_problem_rows, 0) = 0   as source_valid
from cases
left join pos on pos.case_id = cases.case_id
left join budget on budget.case_id = cases.case_id
left join inventory on inventory.case_id = cases.case_id
left join uci on uci.case_id = cases.case_id
