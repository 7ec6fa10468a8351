create or replace view evalhouse.base_ratings_store__blind_keys
  
  
  as
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
from (
    select cast(`export_id` as string) as `export_id`, cast(`suite` as string) as `suite`, cast(`packet_id` as string) as `packet_id`, cast(`item_id` as string) as `item_id`, cast(`letter` as string) as `letter`, cast(`response_id` as string) as `response_id`, cast(`rubric_id` as string) as `rubric_id`, cast(`rubric_version` as string) as `rubric_version`,
      'data/blind/keys/000_header.csv' as filename
    from evalhouse.evalhouse_src_752a2b976716d0c6e53032b9806f8497_1
    
)
