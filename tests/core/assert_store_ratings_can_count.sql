-- A warning, not a failure: a rating in the ratings store (data/ratings/<suite>/*.csv) that cannot count: its
-- response is one the warehouse does not have, or its score cannot be used (score_problem of int_ratings: missing,
-- unknown_criterion for a criterion or version the rubric does not have, not_a_number, not_a_whole_level,
-- out_of_range). `evalhouse import-ratings` refuses such a row, so it comes from a file copied in by hand (a typo, a
-- blind letter with no key) or from a response or rubric version the suite's folder no longer has. The rating stays
-- in fct_ratings (response_known false, or score NULL with its score_problem) and is never scored; the build goes on,
-- and `evalhouse build` prints the first rows this test returns: the file, row, suite, response, rater, criterion,
-- the score as written and the problem. A judge's missing score is not listed: `evalhouse judge run` stores a failed
-- call so (a malformed verdict, a timeout), and fct_judge_calls reports it with its reason.
{{ config(severity='warn') }}
with store as (
    select suite, source_file, source_row from {{ ref('stg_ratings_store__ratings') }}
),

ratings as (
    select suite, source_file, source_row, response_id, response_known, rater_id, rubric_id, rubric_version,
           criterion, score_text, score_problem
    from {{ ref('int_ratings') }}
    where (not response_known or score_problem is not null)
      and not (response_known and rater_kind = 'judge' and score_problem = 'missing')
)

select
    ratings.source_file,
    ratings.source_row,
    ratings.suite,
    ratings.response_id,
    ratings.rater_id,
    ratings.rubric_id,
    ratings.rubric_version,
    ratings.criterion,
    ratings.score_text as score,
    case when not ratings.response_known then 'unknown response' else ratings.score_problem end as problem
from ratings
inner join store
    on store.source_file = ratings.source_file
   and store.source_row = ratings.source_row
   and store.suite is not distinct from ratings.suite
order by ratings.source_file, ratings.source_row
