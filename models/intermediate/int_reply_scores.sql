-- One row per response x rater x rubric version: status, total points and ready, recomputed from the effective
-- criterion scores (int_effective_scores). A rater's or judge's own total / ready fields are never used here.
-- ready follows the rubric's ready_gate rule (int_rubric_rules); NULL when the rubric has none. Totals and the
-- ready rule use points (direction-adjusted: a lower-is-better criterion counts max + min - score).
-- content_verdict follows the content_verdict rule (seed 000: "a person reads it: correct and complete"): fail when
-- any scored criterion of the rule is below its maximum score, pass when every one of the rule's criteria in the
-- set is scored (and none is below), NULL when the rubric has no such rule or none of its criteria is scored.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
with scores as (
    select * from {{ ref('int_effective_scores') }} as effective_scores
    where {{ affected_responses('effective_scores.response_id') }}
),

ready_gates as (
    select rubric_id, criterion from {{ ref('int_rubric_rules') }} where rule = 'ready_gate'
),

content_criteria as (
    select distinct rubric_id, criterion from {{ ref('int_rubric_rules') }} where rule = 'content_verdict'
),

per_set as (
    select
        scores.suite,
        scores.response_id,
        scores.rater_id,
        scores.rater_kind,
        scores.rubric_id,
        scores.rubric_version,
        cast(count(*) as integer)                                                          as n_criteria,
        cast(sum(case when scores.score_status = 'scored' then 1 else 0 end) as integer)          as n_criteria_scored,
        cast(sum(case when scores.score_status = 'missing' then 1 else 0 end) as integer)         as n_criteria_missing,
        cast(sum(case when scores.score_status not in ('scored', 'missing') then 1 else 0 end) as integer) as n_invalid_scores,
        cast(sum(case when scores.carried_forward then 1 else 0 end) as integer)                  as n_carried_forward,
        cast(sum(case when scores.is_stale then 1 else 0 end) as integer)                         as n_stale_scores,
        cast(sum(scores.points) as integer)                                                       as scored_points,
        cast(sum(scores.max_score) as integer)                                                    as max_total,
        cast(sum(case when scores.score_status = 'scored' and scores.points = scores.min_score then 1 else 0 end) as integer) as n_at_minimum,
        cast(sum(case when ready_gates.criterion is not null
                       and not (scores.score_status = 'scored' and scores.points = scores.max_score) then 1 else 0 end) as integer)
                                                                                           as n_gates_not_at_maximum,
        cast(sum(case when content_criteria.criterion is not null then 1 else 0 end) as integer)  as n_content_criteria,
        cast(sum(case when content_criteria.criterion is not null and scores.score_status = 'scored' then 1 else 0 end) as integer)
                                                                                           as n_content_scored,
        cast(sum(case when content_criteria.criterion is not null and scores.score_status = 'scored'
                       and scores.score < scores.max_score then 1 else 0 end) as integer)  as n_content_below_max
    from scores
    left join ready_gates
        on ready_gates.rubric_id = scores.rubric_id and ready_gates.criterion = scores.criterion
    left join content_criteria
        on content_criteria.rubric_id = scores.rubric_id and content_criteria.criterion = scores.criterion
    group by scores.suite, scores.response_id, scores.rater_id, scores.rater_kind, scores.rubric_id, scores.rubric_version
),

status as (
    select
        per_set.*,
        case
            when per_set.n_invalid_scores > 0 then 'invalid_score'
            when per_set.n_criteria_missing > 0 then 'incomplete'
            else 'complete'
        end as score_status
    from per_set
)

select
    status.suite,
    status.response_id,
    status.rater_id,
    status.rater_kind,
    status.rubric_id,
    status.rubric_version,
    status.score_status,
    case when status.score_status = 'complete' then status.scored_points end as total,
    status.max_total,
    case
        when status.rubric_id not in (select ready_gates.rubric_id from ready_gates) then null
        when status.score_status <> 'complete' then false
        else status.n_gates_not_at_maximum = 0 and status.n_at_minimum = 0
    end as ready,
    status.n_criteria,
    status.n_criteria_scored,
    status.n_criteria_missing,
    status.n_invalid_scores,
    status.n_at_minimum,
    status.n_carried_forward,
    status.n_stale_scores,
    case
        when status.n_content_below_max > 0 then 'fail'
        when status.n_content_scored > 0 and status.n_content_scored = status.n_content_criteria then 'pass'
    end as content_verdict
from status
