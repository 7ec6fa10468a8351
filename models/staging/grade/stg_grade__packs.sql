-- One row per GRADE pack (pack.csv of every pack folder, source grade.packs).
select
    pack_id,
    title,
    pack_version,
    try_cast(synthetic as boolean)  as is_synthetic,
    entity_id_regex,
    source,
    filename                        as source_file
from {{ read_source('grade', 'packs') }}
