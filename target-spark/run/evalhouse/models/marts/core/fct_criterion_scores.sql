
  
    
        create table evalhouse.fct_criterion_scores
      
      
      
      
      
      
      
      

      as
      -- One row per response x rater x rubric version x criterion: the effective score with its provenance
-- (rated under which version, carried forward, stale), for drill-down and agreement.
select
    scores.suite,
    scores.response_id,
    responses.item_id,
    responses.system_id,
    scores.rater_id,
    scores.rater_kind,
    scores.rubric_id,
    scores.rubric_version,
    scores.criterion,
    scores.criterion_order,
    scores.min_score,
    scores.max_score,
    scores.score,
    scores.direction,
    scores.points,
    scores.score_status,
    scores.reason,
    scores.rating_id,
    scores.rated_under_version,
    scores.carried_forward,
    scores.is_stale
from evalhouse.int_effective_scores as scores
left join evalhouse.int_responses as responses
    on responses.suite = scores.suite and responses.response_id = scores.response_id
  