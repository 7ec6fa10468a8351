-- Table response_labels of every suite declared as a folder (one label a response reported), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as string) as suite,
    cast(source_file as string) as source_file,
    cast(source_row as integer) as source_row,
    cast(response_id as string) as response_id,
    cast(label_name as string) as label_name,
    cast(label_value as string) as label_value
from {{ read_source('suites', 'response_labels') }}
