-- One row per judge call of `evalhouse judge run`: rubric calls (one call scores every criterion of one reply;
-- its rows in the ratings store share file, reply and prompt hash) and pairwise calls (one row each in the
-- comparisons store). Tokens, latency and cost are the call's, counted once here.
with calls as (
    select * from {{ ref('int_judge_calls') }}
)

select
    {{ row_hash("call_kind || '|' || source_file || '|' || cast(source_row as varchar)") }} as call_id,
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
