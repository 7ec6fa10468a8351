-- One row per suite x task x rubric version x criterion x response x rater: the score the reliability marts use,
-- with the response's system and the reply length. Built on int_ratings (typed and range-checked):
--   * a whole, in-range score is used as is;
--   * a judge / metric / program score that is in range but not a whole level (e.g. HANNA's LLM scores = means of
--     sampled answers, GPT-4's 4.5) is used as its decimal value (rater_kind human must give whole levels);
--   * a metric score (rater_kind metric: BLEU, BERTScore ...) is on the metric's own scale, not the rubric's: its
--     number is used as it is;
--   * anything else (missing, not a number, out of range, unknown criterion, a human's fractional score) gets
--     score_value NULL and excluded_reason = int_ratings.score_problem: it is counted, never used, never 0.
-- Automatic-metric raters (stg_hanna__metric_scores: HANNA's 72 metrics, rater_kind metric, one score per story) are
-- not rubric ratings and are added here only, once per criterion of their rubric (a metric is compared with each),
-- their values as they are under both policies.
-- score_value_as_recorded: the released number as it is, failure codes and out-of-range values included (NULL only
-- when missing / not a number / unknown criterion): the judge_failure_policy 'as_recorded' of the reliability marts.
-- A person (rater_kind human) who rated the same response, criterion and version more than once corrected the
-- rating (import-ratings --correction): the latest counts, as in int_effective_scores (rated_at, then file and row);
-- the earlier ones are left out here. A judge, metric or program asked more than once (judge run with another seed)
-- gets the mean of its answers, n_scores > 1.
-- human_mean / n_human_raters (and their _as_recorded twins): the mean and count of the response's usable human
-- scores under each policy, on every row of the response's group (one response's rows: recomputed together).
-- Adjudicators (rater_kind adjudicator: a lead settling a disagreement after reading the others) are not independent
-- raters and are left out of every agreement statistic.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
-- Built after int_effective_scores (it reads which ratings count there): the two are the chain's largest queries
-- (8M rows each at a million replies, 4-5.5 GB each), and on dbt's two threads they ran side by side before this
-- model read it. One after the other, a cold 1M build peaked at 6.7-6.9 GB instead of 9.5 GB, in the same time.
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
-- the ratings that count in int_effective_scores (each key's latest): a person's other ratings of a key were corrected
with counted as (
    select rating_id
    from {{ ref('int_effective_scores') }}
    where rater_kind = 'human' and not carried_forward and rating_id is not null
      and {{ affected_responses('response_id') }}
),

-- A person's rating is left out when int_effective_scores counts another one for its key instead (a correction);
-- ratings it has no key for (unknown criterion, no rater id or version) are kept, to be counted as excluded.
-- is_counted: a person's rating int_effective_scores counts (an uncorrelated IN: a hash join; the correlated EXISTS
-- it replaced was planned as a delim join, 6 s of 16 at a million replies).
ratings as (
    select *
    from (
        select
            rating_rows.suite, rating_rows.response_id, rating_rows.rater_id, rating_rows.rater_kind,
            rating_rows.criterion, rating_rows.score, rating_rows.score_text, rating_rows.score_problem,
            rating_rows.rubric_id, rating_rows.rubric_version,
            rating_rows.rating_id in (select counted.rating_id from counted) as is_counted
        from {{ ref('int_ratings') }} as rating_rows
        where rating_rows.response_known
          and rating_rows.rater_kind <> 'adjudicator'
          and {{ affected_responses('rating_rows.response_id') }}
    ) as marked
    where is_counted
       or rater_kind <> 'human'
       or rater_id is null or rubric_version is null or criterion is null
       or score_problem = 'unknown_criterion'
),

criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

responses as (
    select * from {{ ref('int_responses') }}
),

items as (
    select * from {{ ref('int_items') }}
),

valued as (
    select
        ratings.*,
        criteria.min_score,
        criteria.max_score,
        case
            when ratings.rater_kind = 'metric'
                 and (ratings.score_problem is null or ratings.score_problem in ('not_a_whole_level', 'out_of_range'))
                then try_cast(ratings.score_text as double)
            when ratings.score is not null then cast(ratings.score as double)
            when ratings.score_problem = 'not_a_whole_level'
                 and ratings.rater_kind in ('judge', 'metric', 'program')
                 and try_cast(ratings.score_text as double) between criteria.min_score and criteria.max_score
                then try_cast(ratings.score_text as double)
        end as score_value,
        case
            when ratings.score_problem is null or ratings.score_problem in ('not_a_whole_level', 'out_of_range')
                then try_cast(ratings.score_text as double)
        end as score_value_as_recorded
    from ratings
    left join criteria
        on criteria.rubric_id = ratings.rubric_id
       and criteria.rubric_version = ratings.rubric_version
       and criteria.criterion = ratings.criterion
),

-- one row per rater x response x criterion (several imports: the mean); the response's columns are joined after
-- the aggregation (they depend on response_id alone), so the rating rows are grouped on their own keys. A person's
-- counted rating is alone in its group (int_effective_scores counts one per key, and a rating kept for want of a
-- key cannot share the key of one it counts), so it is its row as it is: only the other rows are grouped (grouping
-- every row took 6 s of the model's 16 at a million replies; the same values).
rater_scores as (
    select
        valued.suite,
        valued.rubric_id,
        valued.rubric_version,
        valued.criterion,
        valued.response_id,
        valued.rater_id,
        valued.rater_kind,
        valued.min_score,
        valued.max_score,
        valued.score_value,
        valued.score_value_as_recorded,
        cast(case when valued.score_value is null then 0 else 1 end as bigint)            as n_scores,
        cast(case when valued.score_value is null then 1 else 0 end as bigint)            as n_excluded,
        cast(case when valued.score_value_as_recorded is null then 1 else 0 end as bigint) as n_excluded_as_recorded,
        case when valued.score_value is null then coalesce(valued.score_problem, 'unusable') end
                                                                        as excluded_reason
    from valued
    where valued.is_counted

    union all

    select
        valued.suite,
        valued.rubric_id,
        valued.rubric_version,
        valued.criterion,
        valued.response_id,
        valued.rater_id,
        valued.rater_kind,
        min(valued.min_score)                                           as min_score,
        max(valued.max_score)                                           as max_score,
        avg(valued.score_value)                                         as score_value,
        avg(valued.score_value_as_recorded)                             as score_value_as_recorded,
        count(valued.score_value)                                       as n_scores,
        count(*) - count(valued.score_value)                            as n_excluded,
        count(*) - count(valued.score_value_as_recorded)                as n_excluded_as_recorded,
        min(case when valued.score_value is null then coalesce(valued.score_problem, 'unusable') end)
                                                                        as excluded_reason
    from valued
    where not valued.is_counted
    group by
        valued.suite, valued.rubric_id, valued.rubric_version, valued.criterion, valued.response_id,
        valued.rater_id, valued.rater_kind
),

scores as (
    select
        rater_scores.suite,
        items.task,
        rater_scores.rubric_id,
        rater_scores.rubric_version,
        rater_scores.criterion,
        rater_scores.min_score,
        rater_scores.max_score,
        rater_scores.response_id,
        responses.item_id,
        responses.system_id,
        responses.is_reference_system,
        length(responses.response_text)                                 as response_chars,
        rater_scores.rater_id,
        rater_scores.rater_kind,
        rater_scores.score_value,
        rater_scores.score_value_as_recorded,
        rater_scores.n_scores,
        rater_scores.n_excluded,
        rater_scores.n_excluded_as_recorded,
        rater_scores.excluded_reason
    from rater_scores
    inner join responses on responses.response_id = rater_scores.response_id
    left join items on items.suite = responses.suite and items.item_id = responses.item_id

    union all

    select
        metric.suite,
        items.task,
        metric.rubric_id,
        metric.rubric_version,
        criteria.criterion,
        criteria.min_score,
        criteria.max_score,
        metric.response_id,
        responses.item_id,
        responses.system_id,
        responses.is_reference_system,
        length(responses.response_text)                                 as response_chars,
        metric.rater_id,
        metric.rater_kind,
        metric.score_value,
        metric.score_value                                              as score_value_as_recorded,
        cast(case when metric.score_value is null then 0 else 1 end as bigint) as n_scores,
        cast(case when metric.score_value is null then 1 else 0 end as bigint) as n_excluded,
        cast(case when metric.score_value is null then 1 else 0 end as bigint) as n_excluded_as_recorded,
        case when metric.score_value is null then 'missing' end         as excluded_reason
    from {{ ref('stg_hanna__metric_scores') }} as metric
    inner join criteria
        on criteria.rubric_id = metric.rubric_id
       and criteria.rubric_version = metric.rubric_version
    inner join responses on responses.response_id = metric.response_id
    left join items on items.suite = responses.suite and items.item_id = responses.item_id
    where {{ affected_responses('metric.response_id') }}
),

-- the response's human mean and count under each policy, on every rater's row (int_reliability_cells counts by
-- them): grouped once and joined back, rather than a window over every row. task is left out of the key, as it
-- depends on response_id alone; a group with no usable human score has human_mean NULL and n_human_raters 0.
human_means as (
    select
        scores.suite,
        scores.rubric_id,
        scores.rubric_version,
        scores.criterion,
        scores.response_id,
        avg(scores.score_value)                                         as human_mean,
        count(scores.score_value)                                       as n_human_raters,
        avg(scores.score_value_as_recorded)                             as human_mean_as_recorded,
        count(scores.score_value_as_recorded)                           as n_human_raters_as_recorded
    from scores
    where scores.rater_kind = 'human'
    group by scores.suite, scores.rubric_id, scores.rubric_version, scores.criterion, scores.response_id
)

select
    scores.*,
    human_means.human_mean,
    coalesce(human_means.n_human_raters, 0)                             as n_human_raters,
    human_means.human_mean_as_recorded,
    coalesce(human_means.n_human_raters_as_recorded, 0)                 as n_human_raters_as_recorded
from scores
left join human_means
    on human_means.response_id = scores.response_id
   and human_means.criterion is not distinct from scores.criterion
   and human_means.rubric_id is not distinct from scores.rubric_id
   and human_means.rubric_version is not distinct from scores.rubric_version
   and human_means.suite is not distinct from scores.suite
