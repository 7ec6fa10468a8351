-- A rating in the ratings store (data/ratings/<suite>/*.csv) belongs to a suite the warehouse has, and to the suite
-- of the response it rates: a row whose suite is empty or unknown would build a phantom suite, and one whose
-- response is another suite's would change that suite's marts under this suite's name. `evalhouse import-ratings`
-- writes neither; `evalhouse build` checks each store file's suite column against its folder before dbt
-- (store.store_file_problems); this test catches the rest, a file copied in by hand. One row per such rating:
-- its file, row, suite, response and the response's suite (NULL when the response is unknown).
with store as (
    select suite, response_id, source_file, source_row from {{ ref('stg_ratings_store__ratings') }}
),

responses as (
    select suite, response_id from {{ ref('int_responses') }}
)

select
    store.source_file,
    store.source_row,
    store.suite,
    store.response_id,
    responses.suite as response_suite
from store
left join responses
    on responses.response_id = store.response_id
where store.suite is null
   or store.suite not in (select distinct known.suite from responses as known)
   or (responses.response_id is not null and responses.suite <> store.suite)
