-- The first filter's pass share per model run (replies with text only; a reply without text has no verdict).
select
    suite,
    system_id,
    cast(count(*) as integer)                                                                   as n_replies,
    cast(count(first_filter_verdict) as integer)                                                as n_checked,
    cast(sum(case when first_filter_verdict = 'pass' then 1 else 0 end) as integer)             as n_pass,
    cast(sum(case when word_search_verdict = 'pass' then 1 else 0 end) as integer)              as n_word_search_pass,
    cast(sum(case when first_filter_verdict = 'pass' then 1 else 0 end) as double)
        / nullif(count(first_filter_verdict), 0)                                                as pass_share,
    case when count(first_filter_verdict) = 0 then 'no reply with text' end                     as pass_share_reason
from {{ ref('fct_first_filter') }}
group by suite, system_id
