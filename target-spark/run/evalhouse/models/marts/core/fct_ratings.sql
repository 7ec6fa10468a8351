
  
    
        create table evalhouse.fct_ratings
      
      
      
      
      
      
      
      

      as
      -- Every rating ever recorded (seeds and the append-only store), one row per criterion score, with its provenance
-- and checks: nothing is dropped; invalid scores have score NULL and score_problem set.
select
    ratings.rating_id,
    ratings.suite,
    ratings.response_id,
    responses.item_id,
    responses.system_id,
    ratings.response_known,
    ratings.rater_id,
    ratings.rater_kind,
    ratings.criterion,
    ratings.score,
    ratings.score_text,
    ratings.score_problem,
    ratings.reason,
    ratings.rubric_id,
    ratings.rubric_version,
    ratings.is_blind,
    ratings.rated_at,
    ratings.source_file,
    ratings.source_row
from evalhouse.int_ratings as ratings
left join evalhouse.int_responses as responses
    on responses.response_id = ratings.response_id
  