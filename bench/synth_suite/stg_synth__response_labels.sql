select 'synth' as suite, response_id, label_name, label_value
from read_parquet('{{ var("synth_dir") }}/response_labels.parquet')
