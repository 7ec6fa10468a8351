-- The pipeline's answer string as the reported label 'answer' (compared with the gold fact 'answer').
select
    'grade_gsm8k'           as suite,
    response_id,
    'answer'                as label_name,
    answer                  as label_value
from {{ ref('stg_grade_gsm8k__predictions') }}
where answer is not null
