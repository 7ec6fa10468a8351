create or replace view evalhouse.stg_grade__forbidden_claims
  
  
  as
    -- Forbidden claims per task (forbidden_claims.csv): must appear nowhere in the output (findings, limitations, raw text).
select
    pack_id,
    task_id,
    pack_id || '/' || task_id       as item_id,
    claim_id                        as check_id,
    claim_text                      as check_text,
    match_terms,
    filename                        as source_file
from (
    select cast(`pack_id` as string) as `pack_id`, cast(`task_id` as string) as `task_id`, cast(`claim_id` as string) as `claim_id`, cast(`claim_text` as string) as `claim_text`, cast(`match_terms` as string) as `match_terms`,
      'data/grade/packs/edu_example/forbidden_claims.csv' as filename
    from evalhouse.evalhouse_src_128003f26f298e6d430316c794524bce_1
    
)
