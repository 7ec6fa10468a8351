-- The parsed prediction as the reported label 'answer' (compared with the gold fact 'answer').
select
    'grade_tatqa'           as suite,
    response_id,
    'answer'                as label_name,
    pred_answer             as label_value
from {{ ref('stg_grade_tatqa__predictions') }}
where pred_answer is not null
