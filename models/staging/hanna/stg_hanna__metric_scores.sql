-- HANNA's 72 automatic metrics as raters of kind 'metric' (rater_id = the metric's column name, byte-exact, e.g.
-- `BLEU Ξ§`): one row per story x criterion of the story rubric (a metric gives one score per story and is compared
-- with every criterion), on the metric's own scale. Not rubric ratings: they feed only the reliability marts
-- (int_reliability_scores), never the rubric scores, leaderboards or rater-pair kappas.
with metric_scores as (
    select * from {{ read_parquet_source('hanna', 'metric_scores') }}
),

criteria as (
    select distinct criterion from {{ ref('hanna_judge_columns') }} where criterion is not null
)

select
    'hanna'                                             as suite,
    'hanna-story-' || cast(metric_scores.story_id as varchar) as response_id,
    cast(metric_scores.source_column as varchar)        as rater_id,
    'metric'                                            as rater_kind,
    cast(criteria.criterion as varchar)                 as criterion,
    'hanna_story'                                       as rubric_id,
    1                                                   as rubric_version,
    cast(metric_scores.score as double)                 as score_value
from metric_scores
cross join criteria
