-- Two readers, one rubric: for every pair of raters on shared replies, per rubric version and measure (each
-- criterion, all criteria together, the ready decision): exact agreement and Cohen's kappa (unweighted, linear,
-- quadratic) over the rubric's full scale. Seed 000, "Two readers, one rubric".
with pairs as (
    select * from {{ ref('int_rater_pair_scores') }}
),

agreement as (
    select
        suite, rubric_id, rubric_version, rater_a, rater_b, measure,
        min(measure_order)                                                   as measure_order,
        cast(count(*) as integer)                                            as n_shared,
        cast(sum(case when value_a = value_b then 1 else 0 end) as integer)  as n_agree
    from pairs
    group by suite, rubric_id, rubric_version, rater_a, rater_b, measure
)

select
    agreement.suite,
    agreement.rubric_id,
    agreement.rubric_version,
    agreement.rater_a,
    agreement.rater_b,
    agreement.measure,
    agreement.measure_order,
    agreement.n_shared,
    agreement.n_agree,
    cast(agreement.n_agree as double) / nullif(agreement.n_shared, 0)        as exact_agreement,
    kappa.cohen_kappa,
    kappa.kappa_linear,
    kappa.kappa_quadratic,
    kappa.kappa_reason
from agreement
-- Python model on DuckDB, the same figures in SQL on engines without Python models (int_rater_pair_kappa_sql)
left join {{ ref('int_rater_pair_kappa' if target.type == 'duckdb' else 'int_rater_pair_kappa_sql') }} as kappa
    on kappa.suite = agreement.suite
   and kappa.rubric_id = agreement.rubric_id
   and kappa.rubric_version = agreement.rubric_version
   and kappa.rater_a = agreement.rater_a
   and kappa.rater_b = agreement.rater_b
   and kappa.measure = agreement.measure
