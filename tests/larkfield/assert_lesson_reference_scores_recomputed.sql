-- Every one of the lesson's 15 reference rows: the recomputed total and ready flag equal the lesson's (seed 000).
-- Fails with the offending rows (both figures, and what to do when the bundled ratings file was edited), or with a
-- 'missing' row when fewer than 15 reference rows were scored.
with scored as (
    select ticket_id, system_id, total, ready, lesson_total, lesson_ready
    from {{ ref('fct_larkfield_reply_scores') }}
    where rater_id = 'course_team' and rubric_version = 1 and lesson_total is not null
),

mismatches as (
    select ticket_id, system_id,
           'mismatch: total ' || coalesce(cast(total as string), 'NULL') || ', ready '
           || coalesce(cast(ready as string), 'NULL') || '; the lesson has total ' || cast(lesson_total as string)
           || ', ready ' || coalesce(cast(lesson_ready as string), 'NULL')
           || ' (the lesson''s figures hold for course_team''s bundled ratings: if suites/larkfield/ratings.csv was'
           || ' edited, restore it and import new ratings (evalhouse import-ratings) instead)' as problem
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
