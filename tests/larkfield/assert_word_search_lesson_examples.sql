-- The lesson's word-search figure: S02 and M03 (Gemini 3.1 Pro) fail the word search and a person passes them;
-- U03 Mistral 7B passes the word search and a person fails it (seed 000). Returns the rows that disagree.
with expected as (
    select 'S02' as item_id, 'Gemini 3.1 Pro (preview)' as system_id, 'fail' as word_search, 'pass' as human
    union all
    select 'M03', 'Gemini 3.1 Pro (preview)', 'fail', 'pass'
    union all
    select 'U03', 'Mistral 7B (local)', 'pass', 'fail'
)

select expected.*, actual.word_search_verdict, actual.human_verdict
from expected
left join {{ ref('fct_word_search_vs_human') }} as actual
    on actual.item_id = expected.item_id and actual.system_id = expected.system_id
   and actual.rater_id = 'course_team' and actual.rubric_version = 1
where (actual.word_search_verdict is distinct from expected.word_search
       or actual.human_verdict is distinct from expected.human)
  and {{ larkfield_lesson_ratings_unchanged() }}  -- the lesson's figure: while course_team's ratings are the bundled ones
