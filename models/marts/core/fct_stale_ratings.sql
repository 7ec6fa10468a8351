-- What must be rescored: every rater's latest rating made under a rubric version older than the current one, for a
-- criterion whose anchors a later version changed; with the rating that now counts for that criterion, if any.
-- The rating that counts is the same rater's latest rating of the criterion under a version that no later version
-- changed again: a rescore under v2 still counts when v3 leaves the criterion unchanged (carried forward).
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
with criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

-- per rubric version x criterion (a few rows): the first later version that changed the criterion's anchors
criterion_changes as (
    select
        criteria.rubric_id,
        criteria.rubric_version,
        criteria.criterion,
        criteria.current_version,
        (
            select min(c.rubric_version) from criteria as c
            where c.rubric_id = criteria.rubric_id and c.criterion = criteria.criterion
              and c.anchors_changed_in_version
              and c.rubric_version > criteria.rubric_version
        ) as changed_in_version
    from criteria
),

-- the (rubric, criterion) pairs a later version changed: only their ratings can be stale or count as a rescore of
-- one, so the others are not read (a model 3.0-3.3 s -> 2.4-2.5 s alone at a million replies, the same rows)
changed_criteria as (
    select distinct rubric_id, criterion from criterion_changes where changed_in_version is not null
),

-- every rater's latest usable rating per response x rubric version x criterion: the rows of int_effective_scores
-- scored under their own version (not carried forward), i.e. the rating that counts under the version it was made in
latest as (
    select
        scores.suite, scores.response_id, scores.rater_id, scores.rater_kind, scores.rubric_id, scores.criterion,
        scores.rubric_version, scores.score, scores.reason
    from {{ ref('int_effective_scores') }} as scores
    inner join changed_criteria
        on changed_criteria.rubric_id = scores.rubric_id and changed_criteria.criterion = scores.criterion
    where scores.score_status = 'scored' and not scores.carried_forward
      and {{ affected_responses('scores.response_id') }}
),

rated as (
    select
        latest.*,
        criterion_changes.current_version,
        criterion_changes.changed_in_version
    from latest
    inner join criterion_changes
        on criterion_changes.rubric_id = latest.rubric_id
       and criterion_changes.rubric_version = latest.rubric_version
       and criterion_changes.criterion = latest.criterion
),

stale as (
    select * from rated where changed_in_version is not null
),

stale_keys as (
    select distinct response_id, rater_id, rubric_id, criterion from stale
),

-- ratings still valid under the current version (no later version changed the criterion): the latest one counts.
-- Only the (response, rater, rubric, criterion) keys that have a stale rating are ranked: the others join nothing.
rescores as (
    select response_id, rater_id, rubric_id, criterion, rubric_version as rescored_under_version, score, reason
    from (
        select
            rated.*,
            row_number() over (
                partition by rated.response_id, rated.rater_id, rated.rubric_id, rated.criterion
                order by rated.rubric_version desc
            ) as version_rank
        from rated
        inner join stale_keys
            on stale_keys.response_id = rated.response_id
           and stale_keys.rater_id = rated.rater_id
           and stale_keys.rubric_id = rated.rubric_id
           and stale_keys.criterion = rated.criterion
        where rated.changed_in_version is null
    ) as valid
    where version_rank = 1
)

select
    stale.suite,
    stale.response_id,
    responses.item_id,
    responses.system_id,
    stale.rater_id,
    stale.rater_kind,
    stale.rubric_id,
    stale.criterion,
    stale.rubric_version          as rated_under_version,
    stale.score                   as old_score,
    stale.reason                  as old_reason,
    stale.changed_in_version,
    versions.change_note,
    stale.current_version,
    rescores.score                as current_score,
    rescores.reason               as current_reason,
    rescores.rescored_under_version,
    case
        when rescores.score is null then 'pending'
        when rescores.score = stale.score then 'rescored_same'
        else 'rescored_changed'
    end                           as rescore_status
from stale
left join {{ ref('int_responses') }} as responses
    on responses.suite = stale.suite and responses.response_id = stale.response_id
left join {{ ref('int_rubric_versions') }} as versions
    on versions.rubric_id = stale.rubric_id and versions.rubric_version = stale.changed_in_version
left join rescores
    on rescores.response_id = stale.response_id
   and rescores.rater_id = stale.rater_id
   and rescores.rubric_id = stale.rubric_id
   and rescores.criterion = stale.criterion
