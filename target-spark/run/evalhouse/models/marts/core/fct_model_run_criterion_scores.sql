
  
    
        create table evalhouse.fct_model_run_criterion_scores
      
      
      
      
      
      
      
      

      as
      -- Where each run loses points: one row per suite x rubric version x rater x model run x criterion.
with scores as (
    select * from evalhouse.fct_criterion_scores
)

select
    suite,
    rubric_id,
    rubric_version,
    rater_id,
    rater_kind,
    system_id,
    criterion,
    min(criterion_order)                                                                   as criterion_order,
    min(direction)                                                                         as direction,
    cast(sum(case when score_status = 'scored' then 1 else 0 end) as integer)              as n_scored,
    cast(sum(case when score_status = 'scored' and score = min_score then 1 else 0 end) as integer) as n_at_minimum,
    cast(sum(case when score_status = 'scored' and score = max_score then 1 else 0 end) as integer) as n_at_maximum,
    cast(case when (sum(case when score_status = 'scored' then 1 else 0 end)) > 0 then
    cast(floor((cast(sum(case when score_status = 'scored' then score end) as decimal(38, 6)) * 20000 + (sum(case when score_status = 'scored' then 1 else 0 end))) / (2 * (sum(case when score_status = 'scored' then 1 else 0 end)))) as decimal(30, 0))
    * cast('0.0001' as decimal(18, 4))
end as decimal(18, 4)) as mean_score,
    -- on the direction-adjusted scale (points): worst = the level that loses most, whatever the direction
    cast(sum(case when score_status = 'scored' and points = min_score then 1 else 0 end) as integer) as n_at_worst,
    cast(sum(case when score_status = 'scored' and points = max_score then 1 else 0 end) as integer) as n_at_best,
    cast(case when (sum(case when score_status = 'scored' then 1 else 0 end)) > 0 then
    cast(floor((cast(sum(case when score_status = 'scored' then max_score - points end) as decimal(38, 6)) * 20000 + (sum(case when score_status = 'scored' then 1 else 0 end))) / (2 * (sum(case when score_status = 'scored' then 1 else 0 end)))) as decimal(30, 0))
    * cast('0.0001' as decimal(18, 4))
end as decimal(18, 4)) as mean_points_lost,
    cast(sum(case when is_stale then 1 else 0 end) as integer)                             as n_stale
from scores
group by suite, rubric_id, rubric_version, rater_id, rater_kind, system_id, criterion
  