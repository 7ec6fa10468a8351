-- Blind keys written by `evalhouse blind-export` and `evalhouse round create`: which response hides behind each
-- packet letter, one row per key file row, typed.
select
    export_id,
    suite,
    packet_id,
    item_id,
    letter,
    response_id,
    rubric_id,
    try_cast(rubric_version as integer) as rubric_version,
    filename                            as source_file
from {{ read_source('ratings_store', 'blind_keys') }}
