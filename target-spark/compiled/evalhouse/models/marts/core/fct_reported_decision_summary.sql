-- Per suite x rater x rubric version: how often the rater's own ready / pass and total (given in imported files)
-- disagree with the warehouse's recomputation from the same rater's criterion scores.
select
    suite,
    rater_id,
    rubric_id,
    rubric_version,
    cast(count(*) as integer)                                                          as n_replies_reported,
    cast(count(reported_decision) as integer)                                          as n_decisions_reported,
    cast(count(decision_agrees) as integer)                                            as n_decisions_compared,
    cast(sum(case when not decision_agrees then 1 else 0 end) as integer)              as n_decision_disagreements,
    cast(sum(case when reported_decision and not ready then 1 else 0 end) as integer)  as n_reported_ready_recomputed_not,
    cast(sum(case when not reported_decision and ready then 1 else 0 end) as integer)  as n_reported_not_ready_recomputed_ready,
    cast(count(reported_total) as integer)                                             as n_totals_reported,
    cast(count(total_agrees) as integer)                                               as n_totals_compared,
    cast(sum(case when not total_agrees then 1 else 0 end) as integer)                 as n_total_disagreements
from evalhouse.fct_reported_decisions
group by suite, rater_id, rubric_id, rubric_version