-- Sottana items: 100 source texts per task (summarization, simplification, gec); attention checks dropped.
-- reference_text = the gold reference output (also rated as the system `gold_reference`).
with outputs as (
    select * from {{ read_parquet_source('sottana', 'outputs') }}
    where item_raw_id not like 'attention_check%'
)

select
    'sottana'                                                       as suite,
    'sottana-' || task || '-' || substr(item_raw_id, 1, 16)         as item_id,
    cast(task as varchar)                                           as task,
    'en'                                                            as language,
    cast(null as varchar)                                           as category,
    max(source_text)                                                as input_text,
    max(case when system_id = 'gold_reference' then output_text end) as reference_text
from outputs
group by task, item_raw_id
