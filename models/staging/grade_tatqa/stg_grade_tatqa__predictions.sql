-- Program-of-Thoughts outputs on TAT-QA (data/grade_tatqa/predictions.parquet): 5 configurations ("runs") x 1,667
-- questions. pred_answer: the parsed prediction as text (lists ' | '-joined); pred_answer_json: its exact JSON;
-- generated: the raw model output.
select
    config,
    model,
    prompting,
    question_id,
    pred_answer,
    pred_json_kind,
    pred_answer_json,
    nullif(pred_scale, '')  as pred_scale,
    generated,
    'tatqa-' || config || '-' || question_id    as response_id
from {{ grade_read_parquet('data/grade_tatqa/predictions.parquet') }}
