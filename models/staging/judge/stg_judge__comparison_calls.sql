-- Judge-run rows of the comparisons store (one row per call: a pair judged in one shown order), typed.
-- People's comparisons (no prompt_hash) are left out.
with store as (
    select * from {{ read_source('comparisons_store', 'comparisons') }}
)

select
    suite,
    filename                                        as source_file,
    try_cast(source_row as integer)                 as source_row,
    item_id,
    response_id_a,
    response_id_b,
    shown_first,
    rater_id,
    try_cast(preference as decimal(5, 4))           as preference,
    nullif(preference_label, '')                    as preference_label,
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
