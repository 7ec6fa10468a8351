-- Current-period budgets and the online fulfilment cost per unit (pack/cases/<case>/budget.csv), one row per metric.
select
    {{ decisions_parent_dir('filename') }}      as case_id,
    filename                                    as source_file,
    trim(metric)                                as metric,
    amount                                      as amount_text,
    {{ decisions_parse_amount('amount') }}      as amount,
    case when {{ decisions_parse_amount('amount') }} is null then 'unreadable_amount' end as row_problem
from {{ decisions_read_csv_text(decisions_path('budget_glob'), ['metric', 'amount']) }}
