-- One row per judge call of `evalhouse judge run`: rubric calls (the ratings store rows of one call -- same file,
-- reply and prompt hash, one per criterion -- collapsed into one row, tokens, latency and cost counted once) and
-- pairwise calls (one comparisons store row each). source_row is the call's first row in source_file.
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
)

select * from rubric_calls
union all
select * from pairwise_calls
