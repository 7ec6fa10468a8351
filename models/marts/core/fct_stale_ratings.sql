-- What must be rescored: every rater's latest rating made under a rubric version older than the current one, for a
-- criterion whose anchors a later version changed; with the same rater's rating under the current version, if any.
with latest as (
    select * from {{ ref('int_latest_ratings') }} where score_problem is null
),

criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

stale as (
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

current_ratings as (
    select response_id, rater_id, rubric_id, rubric_version, criterion, score, reason
    from latest
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
    current_ratings.score         as current_score,
    current_ratings.reason        as current_reason,
    case
        when current_ratings.score is null then 'pending'
        when current_ratings.score = stale.score then 'rescored_same'
        else 'rescored_changed'
    end                           as rescore_status
from stale
left join {{ ref('int_responses') }} as responses
    on responses.suite = stale.suite and responses.response_id = stale.response_id
left join {{ ref('int_rubric_versions') }} as versions
    on versions.rubric_id = stale.rubric_id and versions.rubric_version = stale.changed_in_version
left join current_ratings
    on current_ratings.response_id = stale.response_id
   and current_ratings.rater_id = stale.rater_id
   and current_ratings.rubric_id = stale.rubric_id
   and current_ratings.criterion = stale.criterion
   and current_ratings.rubric_version = stale.current_version
where stale.changed_in_version is not null
