-- Table items of every suite declared as a folder (one test case), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as varchar) as suite,
    cast(source_file as varchar) as source_file,
    cast(source_row as integer) as source_row,
    cast(item_id as varchar) as item_id,
    cast(input_text as varchar) as input_text,
    cast(reference_text as varchar) as reference_text,
    cast(task as varchar) as task,
    cast(language as varchar) as language,
    cast(category as varchar) as category,
    cast(metadata as varchar) as metadata,
    cast(source_tool as varchar) as source_tool,
    cast(source_tool_version as varchar) as source_tool_version,
    cast(source_log as varchar) as source_log,
    cast(source_sha256 as varchar) as source_sha256,
    cast(eval_id as varchar) as eval_id,
    cast(task_name as varchar) as task_name,
    cast(imported_at as timestamp) as imported_at
from {{ read_source('suites', 'items') }}
