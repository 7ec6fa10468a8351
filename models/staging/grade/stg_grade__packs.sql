-- One row per GRADE pack (pack.csv of every pack folder under var('grade_packs_dir')).
select
    pack_id,
    title,
    pack_version,
    try_cast(synthetic as boolean)  as is_synthetic,
    entity_id_regex,
    source,
    filename                        as source_file
from {{ read_store_csv(var('grade_packs_dir') ~ '/*/pack.csv') }}
