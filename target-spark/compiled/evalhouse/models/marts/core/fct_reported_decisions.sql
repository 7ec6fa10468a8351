-- One row per response x rater x rubric version for which the rater (or judge) gave their own ready / pass or
-- total in an imported file: what they reported beside what the warehouse recomputes from their criterion scores.
-- The reported values are kept for audit and never used for scoring. When several imports (corrections) give a
-- value for the same reply, the latest one (rated_at, then file and row) is compared (int_reported_decisions).
with reported as (
    select * from evalhouse.int_reported_decisions
),

scores as (
    select * from evalhouse.fct_reply_scores
)

select
    reported.suite,
    reported.response_id,
    scores.item_id,
    scores.system_id,
    reported.rater_id,
    scores.rater_kind,
    reported.rubric_id,
    reported.rubric_version,
    reported.reported_decision,
    scores.ready,
    case when reported.reported_decision is not null and scores.ready is not null
         then reported.reported_decision = scores.ready end                                   as decision_agrees,
    case
        when reported.reported_decision is null then 'no reported decision'
        when scores.response_id is null then 'no recomputed score for this reply'
        when scores.ready is null then 'the rubric has no ready rule'
    end                                                                                        as decision_agrees_reason,
    reported.reported_total,
    scores.total,
    case when reported.reported_total is not null and scores.total is not null
         then reported.reported_total = scores.total end                                      as total_agrees,
    case
        when reported.reported_total is null then 'no reported total'
        when scores.response_id is null then 'no recomputed score for this reply'
        when scores.total is null then 'recomputed total undefined: score_status ' || scores.score_status
    end                                                                                        as total_agrees_reason,
    scores.score_status,
    reported.source_file,
    reported.source_row
from reported
left join scores
    on scores.suite = reported.suite
   and scores.response_id = reported.response_id
   and scores.rater_id = reported.rater_id
   and scores.rubric_id = reported.rubric_id
   and scores.rubric_version = reported.rubric_version