-- Table comparisons of every suite declared as a folder (one pairwise preference between two responses to one item by one rater), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as varchar) as suite,
    cast(source_file as varchar) as source_file,
    cast(source_row as integer) as source_row,
    cast(item_id as varchar) as item_id,
    cast(response_id_a as varchar) as response_id_a,
    cast(response_id_b as varchar) as response_id_b,
    cast(rater_id as varchar) as rater_id,
    cast(rater_kind as varchar) as rater_kind,
    cast(shown_first as varchar) as shown_first,
    cast(preference as decimal(38, 10)) as preference,
    cast(preference_label as varchar) as preference_label,
    cast(reason as varchar) as reason,
    cast(rated_at as timestamp) as rated_at,
    cast(judge_model as varchar) as judge_model,
    cast(metadata as varchar) as metadata,
    cast(source_tool as varchar) as source_tool,
    cast(source_tool_version as varchar) as source_tool_version,
    cast(source_log as varchar) as source_log,
    cast(source_sha256 as varchar) as source_sha256,
    cast(eval_id as varchar) as eval_id,
    cast(task_name as varchar) as task_name,
    cast(imported_at as timestamp) as imported_at
from {{ read_source('suites', 'comparisons') }}
