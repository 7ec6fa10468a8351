-- Faithful-CoT outputs on GSM8K (data/grade_gsm8k/predictions.parquet): 24 configurations (6 models x 4 prompting
-- styles) x 1,319 questions. answer = the value the authors' pipeline extracted or computed, as text; answer_json = its
-- exact JSON (a JSON integer or a string: the authors' rule reads the two differently); completion = raw text.
select
    config,
    model,
    prompting,
    question_id,
    answer,
    answer_json,
    completion,
    'gsm8k-' || config || '-' || question_id   as response_id
from {{ grade_read_parquet('data/grade_gsm8k/predictions.parquet') }}
