{{ config(materialized='table') }}
-- The leaderboard's intervals in portable SQL, for engines without Python models (Spark): the mart of the same name
-- as the DuckDB build's Python model (models/marts/app/fct_model_run_score_intervals.py; one of the two is enabled,
-- dbt_project.yml), the same grain, columns, types and NULL rules. Per model run: score 0-10 with a 95% percentile-
-- bootstrap interval over its complete replies (macro percentile_bootstrap: 2,000 resamples drawn with the integer
-- PRNG of that macro, not numpy's PCG64, so the bounds differ from the DuckDB mart's within Monte-Carlo error; the
-- score, counts, reasons and flags are the same). Each resample's statistic is sum(total) x 10 / sum(max_total) of
-- its replies: the mean reply score total / max_total x 10, as every reply of a run has its rubric version's
-- max_total. The bounds go on score_0_10's 2-decimal grid as evalhouse.app.leaderboard.score_grid_bounds puts them:
-- rounded to 4 decimals, then outward (low down, high up), exactly (half_up_units).
-- Tested on DuckDB (python/tests/test_portable_stats.py, var portable_forms_on_duckdb): equal to a Python
-- re-implementation of the PRNG and numpy's quantile, close to bootstrap_mean_ci.
with replies as (
    select suite, rubric_id, rubric_version, rater_id, rater_kind, system_id, response_id, score_status, total,
           max_total
    from {{ ref('fct_reply_scores') }}
),

runs as (
    select
        suite, rubric_id, rubric_version, rater_id, rater_kind, system_id,
        cast(sum(case when score_status = 'complete' then 1 else 0 end) as integer)  as n_replies_scored,
        {{ ratio_round_half_up('sum(case when score_status = \'complete\' then total end) * 10',
                               'sum(case when score_status = \'complete\' then max_total end)', 2) }} as score_0_10
    from replies
    group by suite, rubric_id, rubric_version, rater_id, rater_kind, system_id
),

complete as (
    select suite, rubric_id, rubric_version, rater_id, rater_kind, system_id, response_id,
           cast(total as bigint) * 10 as score_num, cast(max_total as bigint) as score_den
    from replies
    where score_status = 'complete'
),

intervals as (
    {{ percentile_bootstrap('complete', ['suite', 'rubric_id', 'rubric_version', 'rater_id', 'rater_kind', 'system_id'],
                            'score_num', 'score_den', 'response_id', n_boot=2000, level=0.95) | indent(4) }}
),

grid as (
    -- the bounds in units of 0.0001, rounded half-up from the exact doubles (0-10 scale: below 2^4)
    select
        suite, rubric_id, rubric_version, rater_id, rater_kind, system_id, ci_reason,
        {{ half_up_units('ci_low', 4, 4) }}  as low_units,
        {{ half_up_units('ci_high', 4, 4) }} as high_units
    from intervals
)

select
    runs.suite,
    runs.rubric_id,
    runs.rubric_version,
    runs.rater_id,
    runs.rater_kind,
    runs.system_id,
    runs.n_replies_scored,
    runs.score_0_10,
    -- hundredths: floor(units / 100) for the low end, ceil(units / 100) for the high end (exact integers)
    cast(cast((grid.low_units - grid.low_units % 100) / 100 as decimal(18, 0)) * cast(0.01 as decimal(3, 2))
         as decimal(18, 2))                                                                        as score_ci_low,
    cast(cast((grid.high_units - grid.high_units % 100) / 100
              + case when grid.high_units % 100 > 0 then 1 else 0 end as decimal(18, 0)) * cast(0.01 as decimal(3, 2))
         as decimal(18, 2))                                                                        as score_ci_high,
    cast(0.95 as double)                                       as ci_level,
    cast(2000 as integer)                                      as n_boot,
    'percentile bootstrap over replies'                        as ci_method,
    case when runs.n_replies_scored = 0 then 'no values' else grid.ci_reason end as score_ci_reason,
    cast({{ var('min_replies_for_interval') }} as integer)     as min_replies_for_interval,
    runs.n_replies_scored < {{ var('min_replies_for_interval') }} as is_below_min_replies
from runs
left join grid
    on grid.suite = runs.suite
   and grid.rubric_id = runs.rubric_id
   and grid.rubric_version = runs.rubric_version
   and grid.rater_id = runs.rater_id
   and grid.rater_kind = runs.rater_kind
   and grid.system_id = runs.system_id
