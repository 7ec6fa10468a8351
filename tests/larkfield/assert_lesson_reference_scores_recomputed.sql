-- Every one of the lesson's 15 reference rows: the recomputed total and ready flag equal the lesson's (seed 000).
-- Fails with the offending rows, or with a 'missing' row when fewer than 15 reference rows were scored.
with scored as (
    select ticket_id, system_id, total, ready, lesson_total, lesson_ready
    from {{ ref('fct_larkfield_reply_scores') }}
    where rater_id = 'course_team' and rubric_version = 1 and lesson_total is not null
),

mismatches as (
    select ticket_id, system_id, 'mismatch' as problem
    from scored
    where total is distinct from lesson_total or ready is distinct from lesson_ready
),

coverage as (
    select cast(null as varchar) as ticket_id, cast(null as varchar) as system_id,
           'missing: ' || cast(count(*) as varchar) || ' of 15 reference rows scored' as problem
    from scored
    having count(*) <> 15
)

select problems.*
from (
    select * from mismatches
    union all
    select * from coverage
) as problems
where {{ larkfield_lesson_ratings_unchanged() }}  -- the lesson's figure: while course_team's ratings are the bundled ones
