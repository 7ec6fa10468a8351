select 'synth' as suite, item_id, gold_kind, gold_key, gold_value,
       cast(null as decimal(38, 10)) as abs_tol, cast(null as decimal(38, 10)) as rel_tol
from read_parquet('{{ var("synth_dir") }}/gold.parquet')
