-- Current-period budgets and the online fulfilment cost per unit (pack/cases/<case>/budget.csv), one row per metric,
-- as base_decisions__budget reads them with the case's delimiter and number locale.
select
    {{ parent_dir_name('source_file') }}   as case_id,
    source_file,
    source_row,
    trim(metric)                                as metric,
    amount                                      as amount_text,
    amount_value                                as amount,
    case
        when extra_fields is not null then 'too_many_fields'
        when amount_value is null then 'unreadable_amount'
    end as row_problem
from {{ ref('base_decisions__budget') }}
