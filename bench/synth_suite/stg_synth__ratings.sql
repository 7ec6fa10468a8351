select 'synth' as suite, 'parquet:ratings' as source_file, cast(source_row as integer) as source_row, response_id,
       rater_id, 'human' as rater_kind, criterion, score_text, reason, 'synth_support' as rubric_id,
       cast(rubric_version as integer) as rubric_version, true as is_blind, cast(null as timestamp) as rated_at
from read_parquet('{{ var("synth_dir") }}/ratings.parquet')
