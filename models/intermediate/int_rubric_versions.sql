-- The shared data model's rubric_versions for every suite (union_suites).
{{ union_suites('rubric_versions', ['suite', 'rubric_id', 'rubric_version', 'effective_from', 'changed_criteria',
                                    'change_note']) }}
