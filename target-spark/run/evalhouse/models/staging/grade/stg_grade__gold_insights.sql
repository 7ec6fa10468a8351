create or replace view evalhouse.stg_grade__gold_insights
  
  
  as
    -- Gold insights per task (gold_insights.csv). match_terms: ';'-separated terms that must all start a word in the
-- same key finding (case-folded); about_uncertainty = also counted in the calibration dimension.
select
    pack_id,
    task_id,
    pack_id || '/' || task_id                           as item_id,
    insight_id                                          as check_id,
    insight_text                                        as check_text,
    match_terms,
    coalesce(try_cast(about_uncertainty as boolean), false) as about_uncertainty,
    filename                                            as source_file
from (
    select cast(`pack_id` as string) as `pack_id`, cast(`task_id` as string) as `task_id`, cast(`insight_id` as string) as `insight_id`, cast(`insight_text` as string) as `insight_text`, cast(`match_terms` as string) as `match_terms`, cast(`about_uncertainty` as string) as `about_uncertainty`,
      'data/grade/packs/edu_example/gold_insights.csv' as filename
    from evalhouse.evalhouse_src_4d15b18063a2730dadcf6a7ee8b9695b_1
    
)
