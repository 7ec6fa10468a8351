-- depends_on: {{ ref('stg_decisions__case_files') }}
-- Current-period budgets and the online fulfilment cost per unit (pack/cases/<case>/budget.csv), one row per metric,
-- read with the case's delimiter and number locale (stg_decisions__case_files).
select
    {{ decisions_parent_dir('source_file') }}   as case_id,
    source_file,
    trim(metric)                                as metric,
    amount                                      as amount_text,
    amount_value                                as amount,
    case
        when extra_fields is not null then 'too_many_fields'
        when amount_value is null then 'unreadable_amount'
    end as row_problem
from {{ decisions_read_case_csv('budget', ['metric', 'amount'], ['amount']) }}
