-- The score each rater gives each criterion of each response under each rubric version they rated with:
-- one row per (response, rater, rubric version) x criterion of that version.
-- A criterion not re-rated under the version is carried forward from the rater's latest earlier rating when no
-- version in between changed that criterion's anchors (carried_forward); otherwise it is missing.
-- Within one version, the rater's latest rating wins for scoring (the store is append-only: a rater who rates the
-- same criterion again under the same version adds a row; the latest by rated_at, then file and row, counts, and
-- every row stays in fct_ratings). The rows that count are the CTE `latest` below, not a table of their own: a
-- table of them was 8M rows written and read back at 1M replies (17.5 s standalone; inlined, this model takes the
-- time it took alone). Every rating that counts under its own version is a row here with carried_forward false,
-- which fct_stale_ratings reads.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
-- fct_criterion_scores is a view of this table.
{{ config(materialized=rating_chain_materialized(), unique_key='response_id', incremental_strategy='delete+insert',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
-- the rating rows that can count: a known response, a rubric version and a criterion; only the columns used below
with ratings as (
    select
        suite, response_id, item_id, system_id, rater_id, rater_kind, rubric_id, rubric_version, criterion,
        rating_id, score, score_problem, reason, rated_at, source_file, source_row
    from {{ ref('int_ratings') }}
    where response_known and rubric_version is not null and criterion is not null
      and {{ affected_responses('response_id') }}
),

-- A key rated once counts as it is; only the keys rated more than once go through the window (a window over every
-- row: 20 s -> 16 s for 8.2M rows at 1M replies, same rows). NULL rater or rubric ids are matched as equal, as the
-- window's partition does.
repeated as (
    select response_id, rater_id, rubric_id, rubric_version, criterion
    from ratings
    group by response_id, rater_id, rubric_id, rubric_version, criterion
    having count(*) > 1
),

rated_once as (
    select ratings.*
    from ratings
    where not exists (
        select 1 from repeated
        where repeated.response_id = ratings.response_id
          and repeated.rater_id is not distinct from ratings.rater_id
          and repeated.rubric_id is not distinct from ratings.rubric_id
          and repeated.rubric_version = ratings.rubric_version
          and repeated.criterion = ratings.criterion
    )
),

ranked as (
    select
        ratings.*,
        row_number() over (
            partition by ratings.response_id, ratings.rater_id, ratings.rubric_id, ratings.rubric_version,
                         ratings.criterion
            order by ratings.rated_at desc nulls last, ratings.source_file desc, ratings.source_row desc
        ) as recency_rank
    from ratings
    where exists (
        select 1 from repeated
        where repeated.response_id = ratings.response_id
          and repeated.rater_id is not distinct from ratings.rater_id
          and repeated.rubric_id is not distinct from ratings.rubric_id
          and repeated.rubric_version = ratings.rubric_version
          and repeated.criterion = ratings.criterion
    )
),

-- each rater's latest rating per response x rubric version x criterion
latest as (
    select * from rated_once
    union all
    select
        suite, response_id, item_id, system_id, rater_id, rater_kind, rubric_id, rubric_version, criterion,
        rating_id, score, score_problem, reason, rated_at, source_file, source_row
    from ranked
    where recency_rank = 1
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

-- The rater's rating of the criterion under the version itself, when there is one: it always wins (the latest
-- rating under a version is unique, and no version is newer than the version itself). An equality join; the
-- inequality join below runs only for the criteria not re-rated under the version (the old single inequality join
-- with a window over every row took 46 s of a 1M-reply build).
same_version as (
    select
        expected.*,
        latest.rating_id,
        latest.score,
        latest.score_problem,
        latest.reason
    from expected
    left join latest
        on latest.response_id = expected.response_id
       and latest.rater_id = expected.rater_id
       and latest.rubric_id = expected.rubric_id
       and latest.rubric_version = expected.rubric_version
       and latest.criterion = expected.criterion
),

-- Carried forward: the rater's latest rating of the criterion under an earlier version, when no version after it
-- up to this one changed the criterion's anchors.
candidates as (
    select
        not_rerated.response_id, not_rerated.rater_id, not_rerated.rubric_id, not_rerated.rubric_version,
        not_rerated.criterion,
        latest.rating_id,
        latest.score,
        latest.score_problem,
        latest.reason,
        latest.rubric_version as rated_under_version,
        row_number() over (
            partition by not_rerated.response_id, not_rerated.rater_id, not_rerated.rubric_id,
                         not_rerated.rubric_version, not_rerated.criterion
            order by latest.rubric_version desc
        ) as version_rank
    from same_version as not_rerated
    inner join latest
        on latest.response_id = not_rerated.response_id
       and latest.rater_id = not_rerated.rater_id
       and latest.rubric_id = not_rerated.rubric_id
       and latest.criterion = not_rerated.criterion
       and latest.rubric_version < not_rerated.rubric_version
    where not_rerated.rating_id is null
      and not exists (
        select 1 from changes
        where changes.rubric_id = not_rerated.rubric_id
          and changes.criterion = not_rerated.criterion
          and changes.rubric_version > latest.rubric_version
          and changes.rubric_version <= not_rerated.rubric_version
    )
),

carried as (
    select * from candidates where version_rank = 1
),

chosen as (
    select
        same_version.*,
        case when same_version.rating_id is not null then same_version.rubric_version
             else carried.rated_under_version end as rated_under_version,
        coalesce(same_version.rating_id, carried.rating_id) as chosen_rating_id,
        case when same_version.rating_id is not null then same_version.score else carried.score end as chosen_score,
        case when same_version.rating_id is not null then same_version.score_problem
             else carried.score_problem end as chosen_score_problem,
        case when same_version.rating_id is not null then same_version.reason else carried.reason end as chosen_reason
    from same_version
    left join carried
        on same_version.rating_id is null
       and carried.response_id = same_version.response_id
       and carried.rater_id = same_version.rater_id
       and carried.rubric_id = same_version.rubric_id
       and carried.rubric_version = same_version.rubric_version
       and carried.criterion = same_version.criterion
)

select
    chosen.suite,
    chosen.response_id,
    chosen.item_id,
    chosen.system_id,
    chosen.rater_id,
    chosen.rater_kind,
    chosen.rubric_id,
    chosen.rubric_version,
    chosen.criterion,
    chosen.criterion_order,
    chosen.min_score,
    chosen.max_score,
    chosen.chosen_rating_id as rating_id,
    chosen.chosen_score as score,
    -- points: the score on the direction-adjusted scale (higher is better); a lower-is-better criterion counts as
    -- max + min - score, so totals, ready rules and "points lost" read every criterion the same way
    case when chosen.direction = 'lower' then chosen.max_score + chosen.min_score - chosen.chosen_score
         else chosen.chosen_score end as points,
    chosen.direction,
    chosen.chosen_reason as reason,
    chosen.rated_under_version,
    coalesce(chosen.rated_under_version < chosen.rubric_version, false) as carried_forward,
    case
        when chosen.chosen_rating_id is null then 'missing'
        when chosen.chosen_score_problem is not null then chosen.chosen_score_problem
        else 'scored'
    end as score_status,
    -- stale: the score was given under a version older than the rubric's current one, and a later version changed
    -- this criterion's anchors
    coalesce(exists (
        select 1 from changes
        where changes.rubric_id = chosen.rubric_id
          and changes.criterion = chosen.criterion
          and changes.rubric_version > chosen.rated_under_version
          and changes.rubric_version <= chosen.current_version
    ), false) as is_stale
from chosen
