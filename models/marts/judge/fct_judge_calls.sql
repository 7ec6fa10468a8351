-- One row per judge call of `evalhouse judge run`: rubric calls (one call scores every criterion of one reply;
-- its rows in the ratings store share file, reply and prompt hash) and pairwise calls (one row each in the
-- comparisons store). Tokens, latency and cost are the call's, counted once here.
with rating_rows as (
    select * from {{ ref('stg_judge__rating_calls') }}
),

comparison_rows as (
    select * from {{ ref('stg_judge__comparison_calls') }}
),

rubric_calls as (
    select
        'rubric'                                    as call_kind,
        suite,
        response_id,
        cast(null as varchar)                       as response_id_a,
        cast(null as varchar)                       as response_id_b,
        cast(null as varchar)                       as shown_first,
        min(rubric_id)                              as rubric_id,
        min(rubric_version)                         as rubric_version,
        min(rater_id)                               as rater_id,
        min(judge_model)                            as judge_model,
        prompt_hash,
        min(temperature)                            as temperature,
        min(seed)                                   as seed,
        min(input_tokens)                           as input_tokens,
        min(output_tokens)                          as output_tokens,
        min(latency_ms)                             as latency_ms,
        min(cost)                                   as cost,
        min(cost_currency)                          as cost_currency,
        min(failure_reason)                         as failure_reason,
        min(raw_output)                             as raw_output,
        count(*)                                    as n_store_rows,
        min(rated_at)                               as rated_at,
        source_file,
        min(source_row)                             as source_row
    from rating_rows
    group by suite, source_file, response_id, prompt_hash
),

pairwise_calls as (
    select
        'pairwise'                                  as call_kind,
        suite,
        cast(null as varchar)                       as response_id,
        response_id_a,
        response_id_b,
        shown_first,
        cast(null as varchar)                       as rubric_id,
        cast(null as integer)                       as rubric_version,
        rater_id,
        judge_model,
        prompt_hash,
        temperature,
        seed,
        input_tokens,
        output_tokens,
        latency_ms,
        cost,
        cost_currency,
        failure_reason,
        raw_output,
        cast(1 as bigint)                           as n_store_rows,
        rated_at,
        source_file,
        source_row
    from comparison_rows
),

calls as (
    select * from rubric_calls
    union all
    select * from pairwise_calls
)

select
    {{ short_hash("call_kind || '|' || source_file || '|' || cast(source_row as varchar)") }} as call_id,
    call_kind,
    suite,
    response_id,
    response_id_a,
    response_id_b,
    shown_first,
    rubric_id,
    rubric_version,
    rater_id,
    judge_model,
    prompt_hash,
    temperature,
    seed,
    input_tokens,
    output_tokens,
    latency_ms,
    cost,
    cost_currency,
    case
        when cost is not null then null
        when input_tokens is null and raw_output is null and failure_reason is not null
            then 'the call got no answer'
        when input_tokens is null or output_tokens is null then 'the endpoint reported no token usage'
        else 'no price for the judge model (pricing table or --price-input / --price-output)'
    end                                             as cost_reason,
    case when failure_reason is null then 'ok' else 'failed' end as status,
    failure_reason,
    raw_output,
    n_store_rows,
    rated_at,
    source_file,
    source_row
from calls
