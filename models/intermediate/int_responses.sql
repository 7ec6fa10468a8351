-- The shared data model's responses for every suite (union_suites).
-- A landed copy (macros/landed_copy.sql): on DuckDB kept while the landed responses, their staging view and this
-- model are the same.
{{ config(materialized=landed_copy_materialized(), incremental_strategy='append', on_schema_change='fail',
          pre_hook="{{ landed_copy_prepare('responses') }}", post_hook="{{ landed_copy_mark('responses') }}") }}
{{ union_suites('responses', ['suite', 'response_id', 'item_id', 'system_id', 'repetition', 'response_text',
                              'raw_output', 'is_reference_system', 'input_tokens', 'output_tokens', 'total_tokens',
                              'latency_ms', 'ttft_ms', 'cost', 'cost_currency', 'run_label', 'source_tool',
                              'source_tool_version', 'eval_id', 'task_name', 'metadata']) }}
{{ landed_copy_filter() }}
