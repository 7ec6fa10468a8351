-- The shared data model's rubric_levels for every suite in var('rubric_suites').
{{ union_suites('rubric_levels', ['suite', 'rubric_id', 'rubric_version', 'criterion', 'criterion_order', 'min_score', 'max_score', 'level', 'anchor']) }}
