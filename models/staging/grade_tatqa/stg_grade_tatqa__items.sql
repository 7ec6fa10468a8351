-- TAT-QA questions as items; task = answer type (arithmetic, count, span, multi-span).
select
    'grade_tatqa'           as suite,
    question_id             as item_id,
    answer_type             as task,
    'en'                    as language,
    answer_type             as category,
    question                as input_text,
    gold_answer             as reference_text
from {{ ref('stg_grade_tatqa__questions') }}
