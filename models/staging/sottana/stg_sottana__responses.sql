-- Sottana responses: 4 outputs per item (gold_reference + 3 model systems), texts as displayed to the raters.
select
    'sottana'                                                                   as suite,
    'sottana-' || task || '-' || substr(item_raw_id, 1, 16) || '-' || cast(system_position as varchar) as response_id,
    'sottana-' || task || '-' || substr(item_raw_id, 1, 16)                     as item_id,
    cast(system_id as varchar)                                                  as system_id,
    1                                                                           as repetition,
    cast(output_text as varchar)                                                as response_text,
    cast(output_text as varchar)                                                as raw_output,
    system_id = 'gold_reference'                                                as is_reference_system
from {{ read_parquet_source('sottana', 'outputs') }}
where item_raw_id not like 'attention_check%'
