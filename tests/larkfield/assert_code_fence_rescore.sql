-- Rubric v2 (a code fence is no longer a format breach): U03 Gemma 3 4B, whose only format fault is the fence,
-- scores format 1 / total 7 under v1 and format 2 / total 8 under v2; ready does not change (true in both).
-- M01 Gemma keeps format 1 (grammar error) and stays not ready. The stale mart lists the changed v1 score with its
-- v2 rescore, whatever the current version is (a later version that leaves format unchanged carries it forward).
with scores as (
    select ticket_id, rubric_version, format_compliance, total, ready
    from {{ ref('fct_larkfield_reply_scores') }}
    where system_id = 'Gemma 3 4B (local)' and rater_id = 'course_team'
),

expected as (
    select 'U03' as ticket_id, 1 as rubric_version, 1 as format_compliance, 7 as total, true as ready
    union all
    select 'U03', 2, 2, 8, true
    union all
    select 'M01', 1, 1, 2, false
    union all
    select 'M01', 2, 1, 2, false
),

score_problems as (
    select expected.ticket_id, expected.rubric_version, 'score' as problem
    from expected
    left join scores
        on scores.ticket_id = expected.ticket_id and scores.rubric_version = expected.rubric_version
    where scores.total is distinct from expected.total
       or scores.format_compliance is distinct from expected.format_compliance
       or scores.ready is distinct from expected.ready
),

stale_problems as (
    select 'U03' as ticket_id, 1 as rubric_version, 'stale mart' as problem
    where not exists (
        select 1 from {{ ref('fct_stale_ratings') }}
        where item_id = 'U03' and system_id = 'Gemma 3 4B (local)' and criterion = 'format_compliance'
          and old_score = 1 and current_score = 2 and rescored_under_version = 2
          and rescore_status = 'rescored_changed'
    )
)

select problems.*
from (
    select * from score_problems
    union all
    select * from stale_problems
) as problems
where {{ larkfield_lesson_ratings_unchanged() }}  -- the lesson's figure: while course_team's ratings are the bundled ones
