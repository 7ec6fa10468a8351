-- Larkfield: one row per reply x rater x rubric version with the four criterion scores side by side,
-- total 0-8 and ready (correctness 2 and no criterion 0), recomputed; the lesson's own total / ready beside them
-- for audit where the reply is one of the lesson's reference rows.
with replies as (
    select * from evalhouse.fct_reply_scores where suite = 'larkfield'
),

criteria as (
    select
        response_id, rater_id, rubric_version,
        max(case when criterion = 'correctness' then score end)            as correctness,
        max(case when criterion = 'completeness' then score end)           as completeness,
        max(case when criterion = 'format_compliance' then score end)      as format_compliance,
        max(case when criterion = 'appropriate_abstention' then score end) as appropriate_abstention
    from evalhouse.fct_criterion_scores
    where suite = 'larkfield'
    group by response_id, rater_id, rubric_version
),

lesson as (
    -- The reference rater's own total / ready as written in the suite's ratings file (audit only).
    select response_id, max(reported_total) as lesson_total, bool_and(reported_ready) as lesson_ready
    from evalhouse.int_ratings
    where suite = 'larkfield' and rater_id = 'course_team' and rubric_version = 1
    group by response_id
)

select
    replies.response_id,
    replies.item_id                    as ticket_id,
    replies.system_id,
    replies.rater_id,
    replies.rater_kind,
    replies.rubric_version,
    criteria.correctness,
    criteria.completeness,
    criteria.format_compliance,
    criteria.appropriate_abstention,
    replies.total,
    replies.ready,
    replies.score_status,
    replies.n_carried_forward,
    replies.n_stale_scores,
    case when replies.rater_id = 'course_team' and replies.rubric_version = 1 then lesson.lesson_total end as lesson_total,
    case when replies.rater_id = 'course_team' and replies.rubric_version = 1 then lesson.lesson_ready end as lesson_ready
from replies
left join criteria
    on criteria.response_id = replies.response_id
   and criteria.rater_id = replies.rater_id
   and criteria.rubric_version = replies.rubric_version
left join lesson
    on lesson.response_id = replies.response_id