-- A warning, not a failure: a rating in the ratings store (data/ratings/<suite>/*.csv) whose response the warehouse
-- does not have. `evalhouse import-ratings` refuses such a row, so it comes from a file copied in by hand (a typo in
-- response_id, a blind letter with no key) or from a response the suite's folder no longer has. The rating is kept
-- in fct_ratings with response_known false and is never scored (int_ratings); the build goes on, and
-- `evalhouse build` prints the first rows this test returns: the file, row, suite, response id and rater.
{{ config(severity='warn') }}
with store as (
    select suite, response_id, rater_id, source_file, source_row from {{ ref('stg_ratings_store__ratings') }}
),

responses as (
    select response_id from {{ ref('int_responses') }}
)

select
    store.source_file,
    store.source_row,
    store.suite,
    store.response_id,
    store.rater_id
from store
where store.response_id is null
   or not exists (select 1 from responses where responses.response_id = store.response_id)
