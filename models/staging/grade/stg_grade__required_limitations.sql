-- Required limitations per task (required_limitations.csv): must appear in the response's limitations field.
select
    pack_id,
    task_id,
    pack_id || '/' || task_id       as item_id,
    limitation_id                   as check_id,
    limitation_text                 as check_text,
    match_terms,
    filename                        as source_file
from {{ read_source('grade', 'required_limitations') }}
