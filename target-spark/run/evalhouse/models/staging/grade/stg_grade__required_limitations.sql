create or replace view evalhouse.stg_grade__required_limitations
  
  
  as
    -- Required limitations per task (required_limitations.csv): must appear in the response's limitations field.
select
    pack_id,
    task_id,
    pack_id || '/' || task_id       as item_id,
    limitation_id                   as check_id,
    limitation_text                 as check_text,
    match_terms,
    filename                        as source_file
from (
    select cast(`pack_id` as string) as `pack_id`, cast(`task_id` as string) as `task_id`, cast(`limitation_id` as string) as `limitation_id`, cast(`limitation_text` as string) as `limitation_text`, cast(`match_terms` as string) as `match_terms`,
      'data/grade/packs/edu_example/required_limitations.csv' as filename
    from evalhouse.evalhouse_src_25b9ba0dd7c6ed0517454a93d053aed9_1
    
)
