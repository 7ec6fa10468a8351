-- GRADE pack responses, one row per pack x task x model x run, in the names the GRADE marts use
-- (system_id = the run, repetition, raw_text = the recorded raw output).
select
    response_id,
    item_id,
    system_id,
    repetition,
    raw_output      as raw_text
from {{ ref('stg_grade__responses') }}
