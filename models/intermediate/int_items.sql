-- The shared data model's items for every suite (union_suites).
{{ union_suites('items', ['suite', 'item_id', 'task', 'language', 'category', 'input_text', 'reference_text',
                          'metadata']) }}
