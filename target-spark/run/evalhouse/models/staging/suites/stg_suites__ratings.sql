create or replace view evalhouse.stg_suites__ratings
  
  
  as
    -- Table ratings of every suite declared as a folder (one score of one criterion by one rater), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as string) as suite,
    cast(source_file as string) as source_file,
    cast(source_row as integer) as source_row,
    cast(response_id as string) as response_id,
    cast(item_id as string) as item_id,
    cast(system_id as string) as system_id,
    cast(repetition as integer) as repetition,
    cast(rater_id as string) as rater_id,
    cast(rater_kind as string) as rater_kind,
    cast(criterion as string) as criterion,
    cast(score as string) as score_text,
    cast(reason as string) as reason,
    cast(rubric_id as string) as rubric_id,
    cast(rubric_version as integer) as rubric_version,
    cast(is_blind as boolean) as is_blind,
    cast(rated_at as timestamp) as rated_at,
    cast(judge_model as string) as judge_model,
    cast(reported_total as integer) as reported_total,
    cast(reported_ready as boolean) as reported_ready,
    cast(metadata as string) as metadata,
    cast(source_tool as string) as source_tool,
    cast(source_tool_version as string) as source_tool_version,
    cast(source_log as string) as source_log,
    cast(source_sha256 as string) as source_sha256,
    cast(eval_id as string) as eval_id,
    cast(task_name as string) as task_name,
    cast(imported_at as timestamp) as imported_at
from parquet.`warehouse/build/landing/ratings.parquet`
