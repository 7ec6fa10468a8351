-- Every row of the append-only ratings store, every column as text, with its row number in its file
-- (source_row: store_row as written by the importer, 1 = first data row; files without it are numbered here) and
-- a hash of its file's bytes (file_hash).
-- Stored, so a build reads the store's CSV files once (the rating chain, the judge calls, the reported decisions
-- and their tests read this table), and incremental on DuckDB: a run reads only the files that are new or whose
-- bytes changed, and deletes the rows of files that changed or are gone (macros/source_files.sql); the
-- store is append-only, so an import reads one file. --full-refresh, and other engines, read every file.
{{ config(materialized=('incremental' if target.type == 'duckdb' else 'table'), incremental_strategy='append',
          on_schema_change='fail',
          pre_hook="{{ source_files_delete('ratings_store', 'ratings') }}") }}
{%- set files = source_files_to_read('ratings_store', 'ratings') %}
{%- if files is not none and files | length == 0 %}
-- every file is stored as it is (and no header-only file is left to read): no row to add
select * from {{ this }} where false
{%- else %}
with store as (
    select * from {{ read_source('ratings_store', 'ratings', files) }}
),

stamps as (
    select * from {{ source_file_stamps('ratings_store', 'ratings', files) }}
)

select
    store.*,
    stamps.file_hash,
    coalesce(
        try_cast(store.store_row as integer),
        row_number() over (partition by store.filename order by store.rated_at, store.response_id, store.packet_id, store.letter, store.criterion)
    ) as source_row
from store
left join stamps
    on stamps.filename = store.filename
{%- endif %}
