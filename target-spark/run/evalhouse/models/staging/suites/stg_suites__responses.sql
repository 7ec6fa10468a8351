create or replace view evalhouse.stg_suites__responses
  
  
  as
    -- Table responses of every suite declared as a folder (one output of one system on one item (x repetition)), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as string) as suite,
    cast(source_file as string) as source_file,
    cast(source_row as integer) as source_row,
    cast(response_id as string) as response_id,
    cast(item_id as string) as item_id,
    cast(system_id as string) as system_id,
    cast(repetition as integer) as repetition,
    cast(response_text as string) as response_text,
    cast(raw_output as string) as raw_output,
    cast(is_reference_system as boolean) as is_reference_system,
    cast(input_tokens as bigint) as input_tokens,
    cast(output_tokens as bigint) as output_tokens,
    cast(total_tokens as bigint) as total_tokens,
    cast(latency_ms as decimal(38, 10)) as latency_ms,
    cast(ttft_ms as decimal(38, 10)) as ttft_ms,
    cast(cost as decimal(38, 10)) as cost,
    cast(cost_currency as string) as cost_currency,
    cast(run_label as string) as run_label,
    cast(metadata as string) as metadata,
    cast(source_tool as string) as source_tool,
    cast(source_tool_version as string) as source_tool_version,
    cast(source_log as string) as source_log,
    cast(source_sha256 as string) as source_sha256,
    cast(eval_id as string) as eval_id,
    cast(task_name as string) as task_name,
    cast(imported_at as timestamp) as imported_at
from parquet.`warehouse/build/landing/responses.parquet`
