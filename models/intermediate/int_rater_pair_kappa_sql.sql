-- Cohen's kappa (unweighted, linear, quadratic) per rater pair x measure in SQL: the figures of the Python model
-- int_rater_pair_kappa (evalhouse.stats.rater_pairs.pair_kappas), for engines without Python models (Spark).
-- kappa = 1 - sum(w * O) / sum(w * E) over the k x k table of the two raters' levels, O the observed shares, E the
-- product of the two raters' marginal shares; w = 0/1 (unweighted), |i - j| (linear), (i - j)^2 (quadratic). The
-- levels of a criterion are consecutive integers, so i - j is the difference of the two scores, and the rubric's
-- unobserved levels add nothing to either sum. 'ready' has the labels false/true and no weighted kappa;
-- 'all_criteria' has no kappa (see exact agreement).
with cells as (
    select
        suite, rubric_id, rubric_version, rater_a, rater_b, measure, value_a, value_b,
        count(*) as n_units
    from {{ ref('int_rater_pair_scores') }}
    group by suite, rubric_id, rubric_version, rater_a, rater_b, measure, value_a, value_b
),

totals as (
    select suite, rubric_id, rubric_version, rater_a, rater_b, measure, sum(n_units) as n_units
    from cells
    group by suite, rubric_id, rubric_version, rater_a, rater_b, measure
),

observed as (
    select
        suite, rubric_id, rubric_version, rater_a, rater_b, measure,
        sum(case when value_a = value_b then 0 else n_units end)                               as w0_observed,
        sum(abs(try_cast(value_a as bigint) - try_cast(value_b as bigint)) * n_units)           as w1_observed,
        sum(
            (try_cast(value_a as bigint) - try_cast(value_b as bigint))
            * (try_cast(value_a as bigint) - try_cast(value_b as bigint)) * n_units
        )                                                                                       as w2_observed
    from cells
    group by suite, rubric_id, rubric_version, rater_a, rater_b, measure
),

margin_a as (
    select suite, rubric_id, rubric_version, rater_a, rater_b, measure, value_a as level, sum(n_units) as n_units
    from cells
    group by suite, rubric_id, rubric_version, rater_a, rater_b, measure, value_a
),

margin_b as (
    select suite, rubric_id, rubric_version, rater_a, rater_b, measure, value_b as level, sum(n_units) as n_units
    from cells
    group by suite, rubric_id, rubric_version, rater_a, rater_b, measure, value_b
),

expected as (
    -- n^2 x sum(w * E): integer sums, so "no expected disagreement" is an exact zero
    select
        margin_a.suite, margin_a.rubric_id, margin_a.rubric_version, margin_a.rater_a, margin_a.rater_b,
        margin_a.measure,
        sum(case when margin_a.level = margin_b.level then 0 else margin_a.n_units * margin_b.n_units end)
            as w0_expected,
        sum(abs(try_cast(margin_a.level as bigint) - try_cast(margin_b.level as bigint))
            * margin_a.n_units * margin_b.n_units)                                              as w1_expected,
        sum(
            (try_cast(margin_a.level as bigint) - try_cast(margin_b.level as bigint))
            * (try_cast(margin_a.level as bigint) - try_cast(margin_b.level as bigint))
            * margin_a.n_units * margin_b.n_units
        )                                                                                       as w2_expected
    from margin_a
    inner join margin_b
        on margin_b.suite = margin_a.suite
       and margin_b.rubric_id = margin_a.rubric_id
       and margin_b.rubric_version = margin_a.rubric_version
       and margin_b.rater_a = margin_a.rater_a
       and margin_b.rater_b = margin_a.rater_b
       and margin_b.measure = margin_a.measure
    group by margin_a.suite, margin_a.rubric_id, margin_a.rubric_version, margin_a.rater_a, margin_a.rater_b,
             margin_a.measure
),

joined as (
    select
        totals.suite, totals.rubric_id, totals.rubric_version, totals.rater_a, totals.rater_b, totals.measure,
        totals.n_units,
        observed.w0_observed, observed.w1_observed, observed.w2_observed,
        expected.w0_expected, expected.w1_expected, expected.w2_expected,
        totals.measure = 'all_criteria' as is_combined,
        totals.measure = 'ready' as is_ready
    from totals
    inner join observed
        on observed.suite = totals.suite and observed.rubric_id = totals.rubric_id
       and observed.rubric_version = totals.rubric_version and observed.rater_a = totals.rater_a
       and observed.rater_b = totals.rater_b and observed.measure = totals.measure
    inner join expected
        on expected.suite = totals.suite and expected.rubric_id = totals.rubric_id
       and expected.rubric_version = totals.rubric_version and expected.rater_a = totals.rater_a
       and expected.rater_b = totals.rater_b and expected.measure = totals.measure
)

select
    suite,
    rubric_id,
    rubric_version,
    rater_a,
    rater_b,
    measure,
    cast(n_units as integer) as n_pairs,
    case
        when not is_combined and w0_expected <> 0
            then 1.0 - (cast(w0_observed as double) / n_units) / (cast(w0_expected as double) / (n_units * n_units))
    end as cohen_kappa,
    case
        when not is_combined and not is_ready and w1_expected <> 0
            then 1.0 - (cast(w1_observed as double) / n_units) / (cast(w1_expected as double) / (n_units * n_units))
    end as kappa_linear,
    case
        when not is_combined and not is_ready and w2_expected <> 0
            then 1.0 - (cast(w2_observed as double) / n_units) / (cast(w2_expected as double) / (n_units * n_units))
    end as kappa_quadratic,
    case
        when is_combined then 'kappa is not defined for the combined measure; use exact agreement'
        when is_ready and w0_expected = 0
            then 'undefined: both raters used a single, identical category; '
                || 'weighted kappa does not apply to a binary decision'
        when is_ready then 'weighted kappa does not apply to a binary decision'
        when w0_expected = 0 then 'undefined: both raters used a single, identical category'
    end as kappa_reason
from joined
