select 'ffbench' as suite, 'x' as source_file, 1 as source_row, 'x' as response_id, 'x' as rater_id,
       'human' as rater_kind, 'x' as criterion, 'x' as score_text, 'x' as reason, 'x' as rubric_id,
       1 as rubric_version, true as is_blind, cast(null as timestamp) as rated_at where false
