-- GRADE consistency (C4) per pack x task x run (system_id) over its repetitions, in portable SQL (DuckDB and Spark):
-- finding stability, ranking stability, metric variance and their 0.5 / 0.3 / 0.2 combination, the definitions and
-- NULL rules of evalhouse.grade.consistency (the Python reference; python/tests/test_grade_consistency_sql.py
-- compares this mart with it on the bundled data and on edge cases). Step 3 of 3: the findings and their greedy
-- clustering into unique findings are int_grade__consistency_findings and int_grade__consistency_clusters.
--   finding stability: mean over unique findings of (runs it appears in) / (runs);
--   ranking stability: per pair of runs, Kendall tau-b (macro kendall_tau_b) of the positions of the unique
--   findings both share (a pair sharing fewer than 2 has none), mean of (tau_b + 1) / 2;
--   metric variance: per numeric structured_metrics key in 2+ runs 1 / (1 + CV), CV the population sd / |mean|
--   (int_grade__run_metric_values); a key with mean 0 is left out, named in the reason.
-- A task x run with more than 62 x grade_consistency_mask_words() findings is not clustered: finding and ranking
-- stability NULL with that reason (the reference has no such limit).
{%- set max_findings = 62 * grade_consistency_mask_words() %}
with tasks as (
    select pack_id, task_id, item_id from {{ ref('int_grade__tasks') }}
),

runs as (
    select item_id, system_id, count(*) as n_repetitions
    from {{ ref('int_grade__responses') }}
    group by item_id, system_id
),

finding_counts as (
    select item_id, system_id, max(n_findings) as n_findings
    from {{ ref('int_grade__consistency_findings') }}
    group by item_id, system_id
),

clustered as (
    select item_id, system_id, repetition, k, uid from {{ ref('int_grade__consistency_clusters') }}
),

-- finding stability: mean over unique findings of (runs it appears in) / (runs)
unique_findings as (
    select item_id, system_id, uid, count(distinct repetition) as n_runs_with
    from clustered
    group by item_id, system_id, uid
),

finding_stability as (
    select
        u.item_id,
        u.system_id,
        avg(cast(u.n_runs_with as double) / r.n_repetitions) as finding_stability,
        count(*)                                             as n_unique_findings
    from unique_findings as u
    inner join runs as r on r.item_id = u.item_id and r.system_id = u.system_id
    group by u.item_id, u.system_id
),

-- ranking stability: a unique finding's position in a run is its first visit index there (the order of the ranks)
run_positions as (
    select item_id, system_id, repetition, uid, min(k) as position
    from clustered
    group by item_id, system_id, repetition, uid
),

shared_positions as (
    select
        a.item_id,
        a.system_id,
        a.repetition as repetition_a,
        b.repetition as repetition_b,
        a.position   as position_a,
        b.position   as position_b
    from run_positions as a
    inner join run_positions as b
        on b.item_id = a.item_id
       and b.system_id = a.system_id
       and b.uid = a.uid
       and b.repetition > a.repetition
),

pair_tau as (
    {{ kendall_tau_b('shared_positions', ['item_id', 'system_id', 'repetition_a', 'repetition_b'],
                     'position_a', 'position_b') | indent(4) }}
),

ranking_stability as (
    select
        item_id,
        system_id,
        avg((tau_b + 1.0) / 2.0) as ranking_stability,
        count(*)                 as n_repetition_pairs_ranked
    from pair_tau
    where tau_b is not null
    group by item_id, system_id
),

-- metric variance: keys with 2 or more numeric values; a key whose mean is 0 has no CV and is left out
metric_keys as (
    select
        item_id,
        system_id,
        metric_key,
        avg(metric_value)        as mean_value,
        stddev_pop(metric_value) as sd_value
    from {{ ref('int_grade__run_metric_values') }}
    where metric_value is not null
    group by item_id, system_id, metric_key
    having count(*) >= 2
),

metric_scores as (
    select
        item_id,
        system_id,
        avg(1.0 / (1.0 + sd_value / abs(mean_value))) as metric_variance,
        count(*)                                      as n_metric_keys
    from metric_keys
    where mean_value <> 0
    group by item_id, system_id
),

zero_mean_keys as (
    select item_id, system_id, {{ string_agg_ordered('metric_key', 'metric_key', ', ') }} as zero_mean_keys
    from metric_keys
    where mean_value = 0
    group by item_id, system_id
),

parts as (
    select
        t.pack_id,
        t.task_id,
        r.item_id,
        r.system_id,
        r.n_repetitions,
        fs.finding_stability,
        coalesce(fs.n_unique_findings, 0)                                       as n_unique_findings,
        case
            when n.n_findings > {{ max_findings }}
                then 'more than {{ max_findings }} top-3 key findings over the runs (the SQL clustering''s limit)'
            when fs.finding_stability is null then 'no key findings in any run'
        end                                                                     as finding_stability_reason,
        rs.ranking_stability,
        coalesce(rs.n_repetition_pairs_ranked, 0)                               as n_repetition_pairs_ranked,
        case
            when r.n_repetitions < 2 then 'fewer than 2 runs'
            when n.n_findings > {{ max_findings }}
                then 'more than {{ max_findings }} top-3 key findings over the runs (the SQL clustering''s limit)'
            when rs.ranking_stability is null then 'no run pair shares 2 or more top-3 findings'
        end                                                                     as ranking_stability_reason,
        ms.metric_variance,
        coalesce(ms.n_metric_keys, 0)                                           as n_metric_keys,
        case
            when ms.metric_variance is not null and z.zero_mean_keys is not null
                then 'left out (mean 0, CV undefined): ' || z.zero_mean_keys
            when ms.metric_variance is null and z.zero_mean_keys is not null
                then 'CV undefined (mean 0) for every key: ' || z.zero_mean_keys
            when ms.metric_variance is null then 'no numeric structured_metrics key in 2 or more runs'
        end                                                                     as metric_variance_reason
    from runs as r
    inner join tasks as t on t.item_id = r.item_id
    left join finding_counts as n on n.item_id = r.item_id and n.system_id = r.system_id
    left join finding_stability as fs on fs.item_id = r.item_id and fs.system_id = r.system_id
    left join ranking_stability as rs on rs.item_id = r.item_id and rs.system_id = r.system_id
    left join metric_scores as ms on ms.item_id = r.item_id and ms.system_id = r.system_id
    left join zero_mean_keys as z on z.item_id = r.item_id and z.system_id = r.system_id
),

-- sum of w_i s_i / sum of w_i over the defined sub-metrics, added in the reference's order (the same double)
combined as (
    select
        parts.*,
        (coalesce(cast(0.5 as double) * parts.finding_stability, cast(0 as double))
         + coalesce(cast(0.3 as double) * parts.ranking_stability, cast(0 as double)))
        + coalesce(cast(0.2 as double) * parts.metric_variance, cast(0 as double))  as weighted_sum,
        (case when parts.finding_stability is not null then cast(0.5 as double) else cast(0 as double) end
         + case when parts.ranking_stability is not null then cast(0.3 as double) else cast(0 as double) end)
        + case when parts.metric_variance is not null then cast(0.2 as double) else cast(0 as double) end as weight_total
    from parts
)

select
    pack_id,
    task_id,
    item_id,
    system_id,
    n_repetitions,
    finding_stability,
    n_unique_findings,
    finding_stability_reason,
    ranking_stability,
    n_repetition_pairs_ranked,
    ranking_stability_reason,
    metric_variance,
    n_metric_keys,
    metric_variance_reason,
    -- rounded half-up from the exact double, as the reference quantizes it (a plain cast rounds differently by engine)
    case when weight_total > 0 then {{ decimal_half_up("weighted_sum / weight_total", 12) }} end            as consistency,
    concat_ws(',',
              case when finding_stability is not null then 'finding_stability' end,
              case when ranking_stability is not null then 'ranking_stability' end,
              case when metric_variance is not null then 'metric_variance' end)        as sub_metrics_used,
    case when weight_total = 0 then 'no sub-metric defined' end                       as consistency_reason
from combined
