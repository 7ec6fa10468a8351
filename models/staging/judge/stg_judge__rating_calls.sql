-- Judge-run rows of the ratings store (one row per criterion of a call), with the call's metadata typed.
-- Rows of people, imported judges without call metadata and files older than the judge columns have no
-- prompt_hash and are left out.
-- Reads the store through base_ratings_store__ratings (the store's files read once per build).
with store as (
    select * from {{ ref('base_ratings_store__ratings') }}
)

select
    suite,
    filename                                        as source_file,
    try_cast(store_row as integer)                  as source_row,
    response_id,
    rater_id,
    criterion,
    nullif(score, '')                               as score_text,
    rubric_id,
    try_cast(rubric_version as integer)             as rubric_version,
    try_cast(rated_at as timestamp)                 as rated_at,
    judge_model,
    prompt_hash,
    try_cast(temperature as decimal(6, 3))          as temperature,
    try_cast(seed as bigint)                        as seed,
    try_cast(input_tokens as bigint)                as input_tokens,
    try_cast(output_tokens as bigint)               as output_tokens,
    try_cast(latency_ms as bigint)                  as latency_ms,
    try_cast(cost as decimal(18, 9))                as cost,
    nullif(cost_currency, '')                       as cost_currency,
    nullif(raw_output, '')                          as raw_output,
    nullif(failure_reason, '')                      as failure_reason
from store
where rater_kind = 'judge'
  and nullif(prompt_hash, '') is not null
