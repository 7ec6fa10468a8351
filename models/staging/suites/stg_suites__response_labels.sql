-- Table response_labels of every suite declared as a folder (one label a response reported), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as varchar) as suite,
    cast(source_file as varchar) as source_file,
    cast(source_row as integer) as source_row,
    cast(response_id as varchar) as response_id,
    cast(label_name as varchar) as label_name,
    cast(label_value as varchar) as label_value
from {{ read_source('suites', 'response_labels') }}
