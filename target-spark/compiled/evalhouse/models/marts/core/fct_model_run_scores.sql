-- The lesson's per-run table, generically: one row per suite x rubric version x rater x model run.
-- score_0_10 = mean total of the complete replies / max total x 10 (seed 000: "mean total ÷ 8 × 10").
with replies as (
    select * from evalhouse.fct_reply_scores
)

select
    suite,
    rubric_id,
    rubric_version,
    rater_id,
    rater_kind,
    system_id,
    cast(count(*) as integer)                                                      as n_replies_rated,
    cast(sum(case when score_status = 'complete' then 1 else 0 end) as integer)    as n_replies_scored,
    cast(sum(case when score_status = 'incomplete' then 1 else 0 end) as integer)  as n_incomplete,
    cast(sum(case when score_status = 'invalid_score' then 1 else 0 end) as integer) as n_invalid_score,
    -- ready is NULL for every reply of a rubric without a decision rule: then n_ready is NULL too, never 0
    case when count(ready) > 0 then cast(sum(case when ready then 1 else 0 end) as integer) end as n_ready,
    case when count(ready) = 0 then 'the rubric has no ready rule (decision_rule.ready_gate)' end as n_ready_reason,
    cast(sum(case when score_status = 'complete' then total end) as integer)       as sum_total,
    max(max_total)                                                                 as max_total,
    cast(case when (sum(case when score_status = 'complete' then max_total end)) > 0 then
    cast(floor((cast(sum(case when score_status = 'complete' then total end) * 10 as decimal(38, 6)) * 200 + (sum(case when score_status = 'complete' then max_total end))) / (2 * (sum(case when score_status = 'complete' then max_total end)))) as decimal(30, 0))
    * cast('0.01' as decimal(18, 2))
end as decimal(18, 2)) as score_0_10,
    cast(sum(n_stale_scores) as integer)                                           as n_stale_scores
from replies
group by suite, rubric_id, rubric_version, rater_id, rater_kind, system_id