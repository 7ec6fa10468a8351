-- The score each rater gives each criterion of each response under each rubric version they rated with:
-- one row per (response, rater, rubric version) x criterion of that version.
-- A criterion not re-rated under the version is carried forward from the rater's latest earlier rating when no
-- version in between changed that criterion's anchors (carried_forward); otherwise it is missing.
-- Within one version, the rater's latest rating wins for scoring (the store is append-only: older rows stay in
-- fct_ratings, nothing is overwritten).
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
-- fct_criterion_scores is a view of this table.
{{ config(materialized=rating_chain_materialized(), unique_key='response_id', incremental_strategy='delete+insert',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
with latest as (
    select * from {{ ref('int_latest_ratings') }} as latest_ratings
    where {{ affected_responses('latest_ratings.response_id') }}
),

rating_sets as (
    select distinct suite, response_id, item_id, system_id, rater_id, rater_kind, rubric_id, rubric_version
    from latest
),

criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

changes as (
    select rubric_id, rubric_version, criterion from criteria where anchors_changed_in_version
),

expected as (
    select
        rating_sets.*,
        criteria.criterion,
        criteria.criterion_order,
        criteria.min_score,
        criteria.max_score,
        criteria.direction,
        criteria.current_version
    from rating_sets
    inner join criteria
        on criteria.rubric_id = rating_sets.rubric_id
       and criteria.rubric_version = rating_sets.rubric_version
),

candidates as (
    select
        expected.suite, expected.response_id, expected.rater_id, expected.rubric_id, expected.rubric_version,
        expected.criterion,
        latest.rating_id,
        latest.score,
        latest.score_problem,
        latest.reason,
        latest.rubric_version as rated_under_version,
        row_number() over (
            partition by expected.response_id, expected.rater_id, expected.rubric_id, expected.rubric_version,
                         expected.criterion
            order by latest.rubric_version desc
        ) as version_rank
    from expected
    inner join latest
        on latest.response_id = expected.response_id
       and latest.rater_id = expected.rater_id
       and latest.rubric_id = expected.rubric_id
       and latest.criterion = expected.criterion
       and latest.rubric_version <= expected.rubric_version
    where not exists (
        select 1 from changes
        where changes.rubric_id = expected.rubric_id
          and changes.criterion = expected.criterion
          and changes.rubric_version > latest.rubric_version
          and changes.rubric_version <= expected.rubric_version
    )
),

chosen as (
    select * from candidates where version_rank = 1
)

select
    expected.suite,
    expected.response_id,
    expected.item_id,
    expected.system_id,
    expected.rater_id,
    expected.rater_kind,
    expected.rubric_id,
    expected.rubric_version,
    expected.criterion,
    expected.criterion_order,
    expected.min_score,
    expected.max_score,
    chosen.rating_id,
    chosen.score,
    -- points: the score on the direction-adjusted scale (higher is better); a lower-is-better criterion counts as
    -- max + min - score, so totals, ready rules and "points lost" read every criterion the same way
    case when expected.direction = 'lower' then expected.max_score + expected.min_score - chosen.score
         else chosen.score end as points,
    expected.direction,
    chosen.reason,
    chosen.rated_under_version,
    coalesce(chosen.rated_under_version < expected.rubric_version, false) as carried_forward,
    case
        when chosen.rating_id is null then 'missing'
        when chosen.score_problem is not null then chosen.score_problem
        else 'scored'
    end as score_status,
    -- stale: the score was given under a version older than the rubric's current one, and a later version changed
    -- this criterion's anchors
    coalesce(exists (
        select 1 from changes
        where changes.rubric_id = expected.rubric_id
          and changes.criterion = expected.criterion
          and changes.rubric_version > chosen.rated_under_version
          and changes.rubric_version <= expected.current_version
    ), false) as is_stale
from expected
left join chosen
    on chosen.response_id = expected.response_id
   and chosen.rater_id = expected.rater_id
   and chosen.rubric_id = expected.rubric_id
   and chosen.rubric_version = expected.rubric_version
   and chosen.criterion = expected.criterion
