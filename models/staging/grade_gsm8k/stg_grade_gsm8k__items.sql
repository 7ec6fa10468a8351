-- GSM8K questions as items.
select
    'grade_gsm8k'           as suite,
    question_id             as item_id,
    cast(null as varchar)   as task,
    'en'                    as language,
    'math word problem'     as category,
    question                as input_text,
    gold_solution           as reference_text
from {{ ref('stg_grade_gsm8k__questions') }}
