-- The shared data model's responses for every suite in var('rubric_suites').
{{ union_suites('responses', ['suite', 'response_id', 'item_id', 'system_id', 'repetition', 'response_text', 'raw_output', 'is_reference_system']) }}
