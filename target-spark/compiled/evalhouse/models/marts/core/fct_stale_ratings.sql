-- What must be rescored: every rater's latest rating made under a rubric version older than the current one, for a
-- criterion whose anchors a later version changed; with the rating that now counts for that criterion, if any.
-- The rating that counts is the same rater's latest rating of the criterion under a version that no later version
-- changed again: a rescore under v2 still counts when v3 leaves the criterion unchanged (carried forward).
with latest as (
    select * from evalhouse.int_latest_ratings where score_problem is null
),

criteria as (
    select * from evalhouse.int_rubric_criteria
),

rated as (
    select
        latest.*,
        criteria.current_version,
        (
            select min(c.rubric_version) from criteria as c
            where c.rubric_id = latest.rubric_id and c.criterion = latest.criterion
              and c.anchors_changed_in_version
              and c.rubric_version > latest.rubric_version
        ) as changed_in_version
    from latest
    inner join criteria
        on criteria.rubric_id = latest.rubric_id
       and criteria.rubric_version = latest.rubric_version
       and criteria.criterion = latest.criterion
),

stale as (
    select * from rated where changed_in_version is not null
),

-- ratings still valid under the current version (no later version changed the criterion): the latest one counts
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
left join evalhouse.int_responses as responses
    on responses.suite = stale.suite and responses.response_id = stale.response_id
left join evalhouse.int_rubric_versions as versions
    on versions.rubric_id = stale.rubric_id and versions.rubric_version = stale.changed_in_version
left join rescores
    on rescores.response_id = stale.response_id
   and rescores.rater_id = stale.rater_id
   and rescores.rubric_id = stale.rubric_id
   and rescores.criterion = stale.criterion