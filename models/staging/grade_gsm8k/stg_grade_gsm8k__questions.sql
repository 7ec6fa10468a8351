-- GSM8K test questions with gold (data/grade_gsm8k/questions.parquet; SOURCE.md): gold_answer = the integer after
-- '#### ' in the reference solution, thousands commas removed.
select
    question_id,
    question,
    gold_answer,
    gold_solution
from {{ grade_read_parquet('data/grade_gsm8k/questions.parquet') }}
