-- Table comparisons of every suite declared as a folder (one pairwise preference between two responses to one item by one rater), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as string) as suite,
    cast(source_file as string) as source_file,
    cast(source_row as integer) as source_row,
    cast(item_id as string) as item_id,
    cast(response_id_a as string) as response_id_a,
    cast(response_id_b as string) as response_id_b,
    cast(rater_id as string) as rater_id,
    cast(rater_kind as string) as rater_kind,
    cast(shown_first as string) as shown_first,
    cast(preference as decimal(38, 10)) as preference,
    cast(preference_label as string) as preference_label,
    cast(reason as string) as reason,
    cast(rated_at as timestamp) as rated_at,
    cast(judge_model as string) as judge_model,
    cast(metadata as string) as metadata,
    cast(source_tool as string) as source_tool,
    cast(source_tool_version as string) as source_tool_version,
    cast(source_log as string) as source_log,
    cast(source_sha256 as string) as source_sha256,
    cast(eval_id as string) as eval_id,
    cast(task_name as string) as task_name,
    cast(imported_at as timestamp) as imported_at
from {{ read_source('suites', 'comparisons') }}
