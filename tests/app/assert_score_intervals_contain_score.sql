-- A leaderboard interval must contain its run's score (percentile bootstrap of the mean) and lie on the 0-10 scale;
-- a run without an interval must say why. Returns the offending rows.
select *
from {{ ref('fct_model_run_score_intervals') }}
where (score_ci_low is not null and not (score_ci_low <= score_0_10 and score_0_10 <= score_ci_high))
   or (score_ci_low is not null and (score_ci_low < 0 or score_ci_high > 10))
   or (score_ci_low is null and score_ci_reason is null)
