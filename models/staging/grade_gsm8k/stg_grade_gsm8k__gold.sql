-- One numeric gold fact per question (all GSM8K answers are integers). Tolerance: abs 0.01 (a cent; absorbs
-- binary-float noise such as 70000.00000000001 in program answers, not a wrong rounding such as 22.67 for 23).
select
    'grade_gsm8k'                   as suite,
    question_id                     as item_id,
    'numeric_fact'                  as gold_kind,
    'answer'                        as gold_key,
    gold_answer                     as gold_value,
    cast(0.01 as decimal(38, 10))   as abs_tol,
    cast(0 as decimal(38, 10))      as rel_tol
from {{ ref('stg_grade_gsm8k__questions') }}
