{{ config(materialized='table') }}
-- Every response of every pack (responses.jsonl): one row per model x task x run, nested fields kept.
-- Materialised as a table: the JSON files are read once. structured_metrics values are read as text (JSON numbers
-- come through a binary double: write exact values as JSON strings).
with raw as (
    select * from {{ grade_read_jsonl(var('grade_packs_dir') ~ '/*/responses.jsonl', {
        'pack_id': 'VARCHAR', 'task_id': 'VARCHAR', 'model': 'VARCHAR', 'run': 'VARCHAR',
        'key_findings': 'VARCHAR[]', 'limitations': 'VARCHAR[]',
        'structured_metrics': 'MAP(VARCHAR, VARCHAR)', 'raw_text': 'VARCHAR'}) }}
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
