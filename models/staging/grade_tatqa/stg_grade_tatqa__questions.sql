-- TAT-QA dev questions with gold (data/grade_tatqa/questions.parquet; SOURCE.md). gold_answer keeps the JSON text
-- of numbers exactly; span / multi-span gold lists are ' | '-joined; gold_answer_json = the answer's exact JSON.
select
    question_id,
    question,
    answer_type,
    nullif(scale, '')       as scale,
    gold_answer,
    gold_json_kind,
    derivation,
    gold_answer_json
from {{ grade_read_parquet('data/grade_tatqa/questions.parquet') }}
