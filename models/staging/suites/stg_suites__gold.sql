-- Table gold of every suite declared as a folder (one gold entry of one item), cast to the contract's types
-- (python/evalhouse/suites/contract.py; values were checked by `evalhouse suite land`).
select
    cast(suite as string) as suite,
    cast(source_file as string) as source_file,
    cast(source_row as integer) as source_row,
    cast(item_id as string) as item_id,
    cast(gold_kind as string) as gold_kind,
    cast(gold_key as string) as gold_key,
    cast(gold_value as string) as gold_value,
    cast(abs_tol as decimal(38, 10)) as abs_tol,
    cast(rel_tol as decimal(38, 10)) as rel_tol,
    cast(metadata as string) as metadata
from {{ read_source('suites', 'gold') }}
