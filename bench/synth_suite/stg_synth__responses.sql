select 'synth' as suite, response_id, item_id, system_id, cast(repetition as integer) as repetition, response_text,
       raw_output, false as is_reference_system
from read_parquet('{{ var("synth_dir") }}/responses.parquet')
