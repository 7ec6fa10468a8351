{{ config(materialized='table') }}
-- Every response of every pack (responses.jsonl, source grade.responses): one row per model x task x run, nested
-- fields kept. Materialised as a table: the JSON files are read once, and stg_grade__responses,
-- stg_grade__response_labels and stg_grade__response_items read it. structured_metrics values are read as text
-- (JSON numbers come through a binary double: write exact values as JSON strings).
with raw as (
    select * from {{ read_source('grade', 'responses') }}
)

select
    'grade-' || pack_id || '-' || task_id || '-' || {{ short_hash('model') }} || '-r' || run   as response_id,
    pack_id,
    task_id,
    pack_id || '/' || task_id           as item_id,
    model,
    try_cast(run as integer)            as run,
    key_findings,
    limitations,
    structured_metrics,
    raw_text,
    filename                            as source_file
from raw
