select 'synth' as suite, item_id, cast(null as varchar) as task, language, category, input_text, reference_text
from read_parquet('{{ var("synth_dir") }}/items.parquet')
