-- The shared data model's response_labels for every suite (union_suites).
{{ union_suites('response_labels', ['suite', 'response_id', 'label_name', 'label_value']) }}
