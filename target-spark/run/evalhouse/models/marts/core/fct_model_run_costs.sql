
  
    
        create table evalhouse.fct_model_run_costs
      
      
      
      
      
      
      
      

      as
      -- Tokens, latency and cost per model run: one row per suite x system_id, from the responses' own measurements
-- (imported logs carry them; hand-made suites usually do not). A NULL figure has its reason in <column>_reason.
-- A reply is "ready" when every rating set of it with a ready rule (fct_reply_scores.ready not NULL) says ready:
-- for an imported run, every pass/fail scorer of the tool passed it.
with responses as (
    select * from evalhouse.int_responses
),

reply_ready as (
    select suite, response_id, bool_and(ready) as ready
    from evalhouse.fct_reply_scores
    where ready is not null
    group by suite, response_id
),

per_run as (
    select
        responses.suite,
        responses.system_id,
        cast(count(*) as integer)                                                     as n_responses,
        cast(count(responses.latency_ms) as integer)                                  as n_with_latency,
        cast(avg(responses.latency_ms) as decimal(18, 3))                             as mean_latency_ms,
        cast(percentile(responses.latency_ms, 0.95) as decimal(18, 3))   as p95_latency_ms,
        cast(avg(responses.ttft_ms) as decimal(18, 3))                                as mean_ttft_ms,
        cast(count(responses.total_tokens) as integer)                                as n_with_tokens,
        cast(sum(responses.input_tokens) as bigint)                                   as total_input_tokens,
        cast(sum(responses.output_tokens) as bigint)                                  as total_output_tokens,
        cast(sum(responses.total_tokens) as bigint)                                   as total_tokens,
        cast(count(responses.cost) as integer)                                        as n_with_cost,
        cast(sum(responses.cost) as decimal(38, 10))                                  as sum_cost,
        count(distinct responses.cost_currency)                                       as n_currencies,
        min(responses.cost_currency)                                                  as any_currency,
        cast(count(reply_ready.response_id) as integer)                               as n_replies_with_verdict,
        cast(sum(case when reply_ready.ready then 1 else 0 end) as integer)           as n_ready
    from responses
    left join reply_ready
        on reply_ready.suite = responses.suite and reply_ready.response_id = responses.response_id
    group by responses.suite, responses.system_id
)

select
    suite,
    system_id,
    n_responses,
    n_with_latency,
    mean_latency_ms,
    case when n_with_latency = 0 then 'no latency recorded for this run' end           as mean_latency_ms_reason,
    p95_latency_ms,
    case when n_with_latency = 0 then 'no latency recorded for this run' end           as p95_latency_ms_reason,
    mean_ttft_ms,
    case when mean_ttft_ms is null then 'no time to first token recorded for this run' end as mean_ttft_ms_reason,
    n_with_tokens,
    total_input_tokens,
    total_output_tokens,
    total_tokens,
    case when n_with_tokens = 0 then 'no token counts recorded for this run' end       as total_tokens_reason,
    n_with_cost,
    case when n_currencies = 1 then sum_cost end                                       as total_cost,
    case when n_currencies = 1 then any_currency end                                   as cost_currency,
    case
        when n_with_cost = 0 then 'no cost recorded for this run'
        when n_currencies > 1 then 'costs in several currencies'
    end                                                                                 as total_cost_reason,
    n_replies_with_verdict,
    case when n_replies_with_verdict > 0 then n_ready end                               as n_ready,
    case when n_replies_with_verdict > 0 then cast(case when (n_replies_with_verdict) > 0 then
    cast(floor((cast(n_ready as decimal(38, 6)) * 20000 + (n_replies_with_verdict)) / (2 * (n_replies_with_verdict))) as decimal(30, 0))
    * cast('0.0001' as decimal(18, 4))
end as decimal(18, 4)) end
        as ready_share,
    case when n_replies_with_verdict = 0 then 'no rating with a ready rule for this run' end as ready_share_reason,
    case when n_currencies = 1 and n_ready > 0 then cast(sum_cost / n_ready as decimal(38, 10)) end
        as cost_per_ready_reply,
    case
        when n_with_cost = 0 then 'no cost recorded for this run'
        when n_currencies > 1 then 'costs in several currencies'
        when n_replies_with_verdict = 0 then 'no rating with a ready rule for this run'
        when n_ready = 0 then 'no ready reply'
    end                                                                                 as cost_per_ready_reply_reason
from per_run
  