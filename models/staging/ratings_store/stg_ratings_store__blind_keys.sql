-- Blind keys written by `evalhouse blind-export`: which response hides behind each packet letter.
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
from {{ read_store_csv(var('blind_keys_glob')) }}
