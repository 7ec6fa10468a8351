-- Every row of the append-only ratings store, every column as text, with its row number in its file
-- (source_row: store_row as written by the importer, 1 = first data row; files without it are numbered here).
select
    store.*,
    coalesce(
        try_cast(store.store_row as integer),
        row_number() over (partition by store.filename order by store.rated_at, store.response_id, store.packet_id, store.letter, store.criterion)
    ) as source_row
from {{ read_source('ratings_store', 'ratings') }} as store
