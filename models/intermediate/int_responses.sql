-- The shared data model's responses for every suite (declared folders and hand-mapped suites, union_suites).
{{ union_suites('responses', ['suite', 'response_id', 'item_id', 'system_id', 'repetition', 'response_text', 'raw_output', 'is_reference_system'],
                {'input_tokens': 'bigint', 'output_tokens': 'bigint', 'total_tokens': 'bigint', 'latency_ms': 'decimal(38, 10)',
                 'ttft_ms': 'decimal(38, 10)', 'cost': 'decimal(38, 10)', 'cost_currency': 'varchar', 'run_label': 'varchar',
                 'source_tool': 'varchar', 'source_tool_version': 'varchar', 'eval_id': 'varchar', 'task_name': 'varchar',
                 'metadata': 'varchar'}) }}
