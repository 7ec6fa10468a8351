-- Forbidden claims per task (forbidden_claims.csv): must appear nowhere in the output (findings, limitations, raw text).
select
    pack_id,
    task_id,
    pack_id || '/' || task_id       as item_id,
    claim_id                        as check_id,
    claim_text                      as check_text,
    match_terms,
    filename                        as source_file
from {{ read_source('grade', 'forbidden_claims') }}
