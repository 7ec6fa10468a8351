-- The example results exercise every financial verdict (except unknown_case) and a near_relative_1pct diagnostic.
with wanted (verdict) as (
    values ('verified'), ('wrong'), ('withheld'), ('invalid_source'), ('unsupported_financial_claim'),
           ('protocol_invalid')
)
select wanted.verdict from wanted
left join {{ ref('fct_decisions__financial_verdicts') }} as v
    on v.verdict = wanted.verdict and v.experiment_id = 'exp01_example'
group by wanted.verdict
having count(v.verdict) = 0
union all
select 'near_relative_1pct' from {{ ref('fct_decisions__financial_verdicts') }}
having sum(case when near_relative_1pct then 1 else 0 end) = 0
