
  
    
        create table evalhouse.fct_larkfield_model_runs
      
      
      
      
      
      
      
      

      as
      -- Larkfield: the lesson's per-run table ("All 192 replies, one rubric") recomputed from the ratings:
-- one row per model run x rater x rubric version.
with runs as (
    select * from evalhouse.fct_model_run_scores where suite = 'larkfield'
),

zeros as (
    select
        system_id, rater_id, rubric_version,
        max(case when criterion = 'correctness' then n_at_minimum end)            as correctness_zeros,
        max(case when criterion = 'completeness' then n_at_minimum end)           as completeness_zeros,
        max(case when criterion = 'format_compliance' then n_at_minimum end)      as format_zeros,
        max(case when criterion = 'appropriate_abstention' then n_at_minimum end) as abstention_zeros
    from evalhouse.fct_model_run_criterion_scores
    where suite = 'larkfield'
    group by system_id, rater_id, rubric_version
)

select
    runs.system_id,
    runs.rater_id,
    runs.rater_kind,
    runs.rubric_version,
    runs.n_replies_rated,
    runs.n_replies_scored,
    runs.n_ready,
    runs.score_0_10,
    zeros.correctness_zeros,
    zeros.completeness_zeros,
    zeros.format_zeros,
    zeros.abstention_zeros,
    runs.n_incomplete,
    runs.n_invalid_score,
    runs.n_stale_scores
from runs
left join zeros
    on zeros.system_id = runs.system_id
   and zeros.rater_id = runs.rater_id
   and zeros.rubric_version = runs.rubric_version
  