-- Table items of every suite declared as a folder (one test case), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as string) as suite,
    cast(source_file as string) as source_file,
    cast(source_row as integer) as source_row,
    cast(item_id as string) as item_id,
    cast(input_text as string) as input_text,
    cast(reference_text as string) as reference_text,
    cast(task as string) as task,
    cast(language as string) as language,
    cast(category as string) as category,
    cast(metadata as string) as metadata,
    cast(source_tool as string) as source_tool,
    cast(source_tool_version as string) as source_tool_version,
    cast(source_log as string) as source_log,
    cast(source_sha256 as string) as source_sha256,
    cast(eval_id as string) as eval_id,
    cast(task_name as string) as task_name,
    cast(imported_at as timestamp) as imported_at
from {{ read_source('suites', 'items') }}
