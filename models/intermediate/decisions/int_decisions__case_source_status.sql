-- Per case: is the raw data valid for an exact recomputation? Counts of rows and problems in POS, budget, inventory.
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
