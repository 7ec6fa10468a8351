-- HANNA's 72 automatic metrics as raters of kind 'metric' (rater_id = the metric's column name, byte-exact, e.g.
-- `BLEU Ξ§`): one row per story x metric, on the metric's own scale, for the story rubric (int_reliability_scores
-- compares each metric with every criterion of it). Not rubric ratings: they feed only the reliability marts, never
-- the rubric scores, leaderboards or rater-pair kappas.
with metric_scores as (
    select * from {{ read_source('hanna', 'metric_scores') }}
)

select
    'hanna'                                 as suite,
    cast(response_id as varchar)            as response_id,
    cast(metric as varchar)                 as rater_id,
    'metric'                                as rater_kind,
    'hanna_story'                           as rubric_id,
    1                                       as rubric_version,
    cast(score as double)                   as score_value
from metric_scores
