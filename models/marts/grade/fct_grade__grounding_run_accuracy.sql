{{ config(materialized='table') }}
-- Grounding accuracy per suite x run (system_id: a model / prompt configuration) under exact match and under
-- the GRADE tolerance rule, side by side, for all facts and per fact kind. Number-extraction rule: the LAST number
-- token of the reported answer (evalhouse.grade_text), compared in DECIMAL(38,18).
with checks as (
    select suite, system_id, fact_kind, passed_exact, passed, check_status
    from {{ ref('fct_grade__fact_checks') }}
),

kinds as (
    select suite, system_id, fact_kind, passed_exact, passed, check_status from checks
    union all
    select suite, system_id, 'all', passed_exact, passed, check_status from checks
)

select
    suite,
    system_id                                                           as run_id,
    fact_kind,
    count(*)                                                            as n_facts,
    sum(case when passed_exact then 1 else 0 end)                       as n_exact,
    sum(case when passed then 1 else 0 end)                             as n_tolerance,
    sum(case when check_status in ('not_reported', 'no_number') then 1 else 0 end) as n_no_answer,
    cast(round(100.0 * sum(case when passed_exact then 1 else 0 end) / count(*), 2) as decimal(5, 2)) as accuracy_exact_pct,
    cast(round(100.0 * sum(case when passed then 1 else 0 end) / count(*), 2) as decimal(5, 2))       as accuracy_tolerance_pct,
    cast(round(100.0 * (sum(case when passed then 1 else 0 end) - sum(case when passed_exact then 1 else 0 end))
               / count(*), 2) as decimal(5, 2))                                                       as tolerance_gain_pct,
    'last number token of the reported answer; DECIMAL(38,18); see evalhouse.grade_text' as extraction_rule
from kinds
group by suite, system_id, fact_kind
