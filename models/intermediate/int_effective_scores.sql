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
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
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

criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

changes as (
    select rubric_id, rubric_version, criterion from criteria where anchors_changed_in_version
),

-- the last version that changed each criterion's anchors (changes never come after the current version)
last_changes as (
    select rubric_id, criterion, max(rubric_version) as last_change_version
    from changes
    group by rubric_id, criterion
),

version_sizes as (
    select rubric_id, rubric_version, count(*) as n_criteria
    from criteria
    group by rubric_id, rubric_version
),

-- The rater's rating of a criterion under the version itself: it always wins (the latest rating under a version is
-- unique, and no version is newer than the version itself). Nearly every expected row is found here, by a join
-- with the small criteria table. A NULL rater id matches nothing (the rows of such a rater are missing).
found as (
    select
        latest.suite, latest.response_id, latest.item_id, latest.system_id, latest.rater_id, latest.rater_kind,
        latest.rubric_id, latest.rubric_version, latest.criterion,
        criteria.criterion_order, criteria.min_score, criteria.max_score, criteria.direction,
        latest.rubric_version as rated_under_version,
        latest.rating_id, latest.score, latest.score_problem, latest.reason
    from latest
    inner join criteria
        on criteria.rubric_id = latest.rubric_id
       and criteria.rubric_version = latest.rubric_version
       and criteria.criterion = latest.criterion
    where latest.rater_id is not null
),

-- The (response, rater, rubric version) sets that lack a rating of some criterion of the version (left out, or
-- rated by a NULL rater id): only these get their expected rows listed and earlier versions searched. Counting per
-- set replaced a join of every expected row with every rating (two 8M-row sides at a million replies).
open_keys as (
    select set_counts.response_id, set_counts.rater_id, set_counts.rubric_id, set_counts.rubric_version
    from (
        select
            latest.response_id, latest.rater_id, latest.rubric_id, latest.rubric_version,
            count(case when latest.rater_id is not null then criteria.criterion end) as n_found
        from latest
        left join criteria
            on criteria.rubric_id = latest.rubric_id
           and criteria.rubric_version = latest.rubric_version
           and criteria.criterion = latest.criterion
        group by latest.response_id, latest.rater_id, latest.rubric_id, latest.rubric_version
    ) as set_counts
    inner join version_sizes
        on version_sizes.rubric_id = set_counts.rubric_id
       and version_sizes.rubric_version = set_counts.rubric_version
    where set_counts.n_found < version_sizes.n_criteria
),

-- every latest rating (any version) of the open sets' response, rater and rubric
open_latest as (
    select latest.*
    from latest
    where exists (
        select 1 from open_keys
        where open_keys.response_id = latest.response_id
          and open_keys.rater_id = latest.rater_id
          and open_keys.rubric_id = latest.rubric_id
    )
),

open_sets as (
    select distinct
        latest.suite, latest.response_id, latest.item_id, latest.system_id, latest.rater_id, latest.rater_kind,
        latest.rubric_id, latest.rubric_version
    from latest
    inner join open_keys
        on open_keys.response_id = latest.response_id
       and open_keys.rater_id is not distinct from latest.rater_id
       and open_keys.rubric_id = latest.rubric_id
       and open_keys.rubric_version = latest.rubric_version
),

-- the criteria of an open set's version not rated under it
not_rerated as (
    select
        open_sets.*,
        criteria.criterion,
        criteria.criterion_order,
        criteria.min_score,
        criteria.max_score,
        criteria.direction
    from open_sets
    inner join criteria
        on criteria.rubric_id = open_sets.rubric_id
       and criteria.rubric_version = open_sets.rubric_version
    where not exists (
        select 1 from open_latest
        where open_latest.response_id = open_sets.response_id
          and open_latest.rater_id = open_sets.rater_id
          and open_latest.rubric_id = open_sets.rubric_id
          and open_latest.rubric_version = open_sets.rubric_version
          and open_latest.criterion = criteria.criterion
    )
),

-- Carried forward: the rater's latest rating of the criterion under an earlier version, when no version after it
-- up to this one changed the criterion's anchors.
candidates as (
    select
        not_rerated.response_id, not_rerated.rater_id, not_rerated.rubric_id, not_rerated.rubric_version,
        not_rerated.criterion,
        open_latest.rating_id,
        open_latest.score,
        open_latest.score_problem,
        open_latest.reason,
        open_latest.rubric_version as rated_under_version,
        row_number() over (
            partition by not_rerated.response_id, not_rerated.rater_id, not_rerated.rubric_id,
                         not_rerated.rubric_version, not_rerated.criterion
            order by open_latest.rubric_version desc
        ) as version_rank
    from not_rerated
    inner join open_latest
        on open_latest.response_id = not_rerated.response_id
       and open_latest.rater_id = not_rerated.rater_id
       and open_latest.rubric_id = not_rerated.rubric_id
       and open_latest.criterion = not_rerated.criterion
       and open_latest.rubric_version < not_rerated.rubric_version
    where not exists (
        select 1 from changes
        where changes.rubric_id = not_rerated.rubric_id
          and changes.criterion = not_rerated.criterion
          and changes.rubric_version > open_latest.rubric_version
          and changes.rubric_version <= not_rerated.rubric_version
    )
),

carried as (
    select * from candidates where version_rank = 1
),

chosen as (
    select * from found

    union all

    select
        not_rerated.suite, not_rerated.response_id, not_rerated.item_id, not_rerated.system_id,
        not_rerated.rater_id, not_rerated.rater_kind, not_rerated.rubric_id, not_rerated.rubric_version,
        not_rerated.criterion, not_rerated.criterion_order, not_rerated.min_score, not_rerated.max_score,
        not_rerated.direction,
        carried.rated_under_version,
        carried.rating_id, carried.score, carried.score_problem, carried.reason
    from not_rerated
    left join carried
        on carried.response_id = not_rerated.response_id
       and carried.rater_id = not_rerated.rater_id
       and carried.rubric_id = not_rerated.rubric_id
       and carried.rubric_version = not_rerated.rubric_version
       and carried.criterion = not_rerated.criterion
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
    chosen.rating_id,
    chosen.score,
    -- points: the score on the direction-adjusted scale (higher is better); a lower-is-better criterion counts as
    -- max + min - score, so totals, ready rules and "points lost" read every criterion the same way
    case when chosen.direction = 'lower' then chosen.max_score + chosen.min_score - chosen.score
         else chosen.score end as points,
    chosen.direction,
    chosen.reason,
    chosen.rated_under_version,
    coalesce(chosen.rated_under_version < chosen.rubric_version, false) as carried_forward,
    case
        when chosen.rating_id is null then 'missing'
        when chosen.score_problem is not null then chosen.score_problem
        else 'scored'
    end as score_status,
    -- stale: the score was given under a version older than the rubric's current one, and a later version changed
    -- this criterion's anchors (a join with the last change, not an exists subquery: Spark 4's optimizer fails on
    -- an exists over a union all, PushProjectionThroughUnion "key not found")
    coalesce(chosen.rated_under_version < last_changes.last_change_version, false) as is_stale
from chosen
left join last_changes
    on last_changes.rubric_id = chosen.rubric_id
   and last_changes.criterion = chosen.criterion
