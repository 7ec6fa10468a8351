{#- Statistics in portable SQL (DuckDB and Spark give the same figures): the query forms of statistics that must run
    where Python models cannot (dbt-spark runs Python models on Databricks only). Each macro renders a whole SELECT
    (WITH included) over a relation or CTE name; the Python implementations stay the reference (pytest). -#}

{#- kendall_tau_b(relation, group_cols, x, y): Kendall's tau-b of the paired values (x, y) of each group, from the
    (x, y) cell counts, so the cost grows with the distinct values, not with n^2:
      P = sum of c1 c2 over cell pairs with x1 < x2 and y1 < y2 (concordant), Q = ... with x1 < x2 and y1 > y2,
      n0 = n (n - 1) / 2, n1 = sum over x values of t (t - 1) / 2 (pairs tied in x), n2 likewise in y;
      tau_b = (P - Q) / sqrt(n0 - n1) / sqrt(n0 - n2) (= (P - Q) / sqrt((P + Q + T_x)(P + Q + T_y)), Kendall 1945),
      clipped to [-1, 1], in the order scipy.stats.kendalltau(variant='b') computes it (the same double).
    Rows with a NULL x or y are dropped. One row per group of the relation: the group columns, n_pairs (complete
    pairs used, BIGINT), tau_b (DOUBLE) and tau_b_reason (the reasons of evalhouse.stats.agreement.kendall_tau_b:
    fewer than two complete pairs; x or y constant), NULL tau_b exactly when the reason is set.
    group_cols: list of column names (non-NULL values; [] for the whole relation); x, y: column names (numbers or
    any ordered type). -#}
{% macro kendall_tau_b(relation, group_cols, x, y) -%}
{%- set g = group_cols -%}
{%- set gsel = (g | join(', ')) ~ (', ' if g else '') -%}
{%- set gby = ('group by ' ~ (g | join(', '))) if g else '' -%}
with kt_groups as (
    select distinct {{ gsel }}1 as kt_one
    from {{ relation }}
),

kt_cells as (
    select {{ gsel }}{{ x }} as kt_x, {{ y }} as kt_y, count(*) as kt_c
    from {{ relation }}
    where {{ x }} is not null and {{ y }} is not null
    group by {{ gsel }}{{ x }}, {{ y }}
),

-- twice the tied pairs per x value and per y value: t (t - 1), an exact integer
kt_x_ties as (
    select {{ gsel }}sum(kt_t) as kt_n, sum(kt_t * (kt_t - 1)) as kt_n1x2
    from (select {{ gsel }}sum(kt_c) as kt_t from kt_cells group by {{ gsel }}kt_x) as kt_xm
    {{ gby }}
),

kt_y_ties as (
    select {{ gsel }}sum(kt_t * (kt_t - 1)) as kt_n2x2
    from (select {{ gsel }}sum(kt_c) as kt_t from kt_cells group by {{ gsel }}kt_y) as kt_ym
    {{ gby }}
),

kt_pairs as (
    select
        {%- for c in g %}
        a.{{ c }},
        {%- endfor %}
        sum(case when a.kt_y < b.kt_y then a.kt_c * b.kt_c else 0 end)
        - sum(case when a.kt_y > b.kt_y then a.kt_c * b.kt_c else 0 end) as kt_p_minus_q
    from kt_cells as a
    inner join kt_cells as b
        on a.kt_x < b.kt_x
        {%- for c in g %}
       and b.{{ c }} = a.{{ c }}
        {%- endfor %}
    {% if g %}group by {% for c in g %}a.{{ c }}{{ ', ' if not loop.last }}{% endfor %}{% endif %}
),

kt_counts as (
    select
        {%- for c in g %}
        kt_groups.{{ c }},
        {%- endfor %}
        cast(coalesce(kt_x_ties.kt_n, 0) as bigint)                                        as n_pairs,
        -- n0 - n1 and n0 - n2 (pairs not tied in x, in y): halves of even integers, exact in a double
        cast(coalesce(kt_x_ties.kt_n * (kt_x_ties.kt_n - 1) - kt_x_ties.kt_n1x2, 0) as double) / 2 as kt_untied_x,
        cast(coalesce(kt_x_ties.kt_n * (kt_x_ties.kt_n - 1) - kt_y_ties.kt_n2x2, 0) as double) / 2 as kt_untied_y,
        cast(coalesce(kt_pairs.kt_p_minus_q, 0) as double)                                 as kt_p_minus_q
    from kt_groups
    left join kt_x_ties
        on 1 = 1{% for c in g %} and kt_x_ties.{{ c }} = kt_groups.{{ c }}{% endfor %}
    left join kt_y_ties
        on 1 = 1{% for c in g %} and kt_y_ties.{{ c }} = kt_groups.{{ c }}{% endfor %}
    left join kt_pairs
        on 1 = 1{% for c in g %} and kt_pairs.{{ c }} = kt_groups.{{ c }}{% endfor %}
)

select
    {{ gsel }}n_pairs,
    case when n_pairs >= 2 and kt_untied_x > 0 and kt_untied_y > 0
         then least(cast(1 as double), greatest(cast(-1 as double),
                    kt_p_minus_q / sqrt(kt_untied_x) / sqrt(kt_untied_y)))
    end as tau_b,
    case when n_pairs < 2 then 'fewer than two complete pairs'
         when kt_untied_x = 0 then 'x is constant (all tied): correlation undefined'
         when kt_untied_y = 0 then 'y is constant (all tied): correlation undefined'
    end as tau_b_reason
from kt_counts
{%- endmacro %}

{#- percentile_bootstrap(relation, group_cols, num, den, order_by, n_boot, level): the percentile bootstrap (Efron &
    Tibshirani 1993, ch. 13) of the ratio sum(num) / sum(den) of each group's rows, in portable SQL with the same
    resamples on every engine. num and den are exact integers (den = 1: the mean of num); a resample's statistic is
    sum(num) / sum(den) of its drawn rows, exact integer sums and one division in DOUBLE.
    Resample b (0 .. n_boot - 1) draws n rows with replacement: draw i (0 .. n - 1) takes the row at 0-based position
    pick(b, i) in order_by order, from the deterministic integer PRNG (BIGINT math, every product below 2^62):
      x = (b * 1000003 + i * 7919 + 12345) mod M,  M = 2^31 - 1 (reduced before squaring),
      h = ((x * x mod M) * 48271) mod M,  pick = (h * h mod M) mod n
    (random() / rand() differ by engine and run, hash() by engine). The bounds are the (1 - level) / 2 and
    (1 + level) / 2 quantiles of the n_boot statistics by linear interpolation between order statistics, computed
    as numpy.quantile(method='linear') does (virtual index (n_boot - 1) q, the same lerp), so a Python
    re-implementation of this PRNG gives the same doubles. A different PRNG than numpy's PCG64
    (evalhouse.stats.bootstrap.bootstrap_mean_ci): the same bootstrap distribution, other resamples, so bounds agree
    with it within Monte-Carlo error only.
    One row per group of the relation: the group columns, n_values (BIGINT), ci_low and ci_high (DOUBLE), ci_reason:
    'fewer than 2 values: no interval' for n = 1 (bounds NULL). Cost: n_boot x n generated rows per group (the
    rows carry an integer group id, the group columns are joined back at the end). order_by must order a group's
    rows totally (ties would make the resamples engine-dependent). -#}
{% macro percentile_bootstrap(relation, group_cols, num, den, order_by, n_boot=2000, level=0.95) -%}
{%- if n_boot < 2 or not (0 < level < 1) -%}
  {{ exceptions.raise_compiler_error("percentile_bootstrap: n_boot >= 2 and 0 < level < 1, not " ~ n_boot ~ ", " ~ level) }}
{%- endif -%}
{%- set g = group_cols -%}
{#- numpy's linear method, in Python doubles at compile time: virtual index h = (n_boot - 1) q, neighbours floor(h)
    and floor(h) + 1, weight t = h - floor(h); the lerp is b - (b - a)(1 - t) when t >= 0.5, else a + (b - a) t -#}
{%- set ns = namespace(bounds=[]) -%}
{%- for q in [(1 - level) / 2, (1 + level) / 2] -%}
  {%- set h = (n_boot - 1) * q -%}
  {%- set lo = h | int -%}
  {%- set t = h - lo -%}
  {%- set ns.bounds = ns.bounds + [{'lo': lo, 't': t, 'one_minus_t': 1 - t}] -%}
{%- endfor -%}
with bs_rows as (
    select
        {%- for c in g %}
        {{ c }},
        {%- endfor %}
        cast({{ num }} as bigint) as bs_num,
        cast({{ den }} as bigint) as bs_den,
        row_number() over ({{ 'partition by ' ~ (g | join(', ')) if g }} order by {{ order_by }}) - 1 as bs_idx
    from {{ relation }}
),

bs_groups as (
    select
        {%- for c in g %}
        {{ c }},
        {%- endfor %}
        count(*) as n_values,
        dense_rank() over (order by {{ (g | join(', ')) if g else '1' }}) as bs_group
    from bs_rows
    {{ 'group by ' ~ (g | join(', ')) if g }}
),

bs_indexed as (
    select gr.bs_group, r.bs_idx, r.bs_num, r.bs_den
    from bs_rows as r
    inner join bs_groups as gr
        on 1 = 1{% for c in g %} and gr.{{ c }} = r.{{ c }}{% endfor %}
),

bs_resamples as (
    select {{ series_rows(n_boot) }} as bs_b
),

bs_group_resamples as (
    select gr.bs_group, gr.n_values, rs.bs_b
    from bs_groups as gr
    cross join bs_resamples as rs
    where gr.n_values >= 2
),

bs_draws as (
    select
        bs_group,
        bs_b,
        (((bs_h * bs_h) % 2147483647) % n_values) as bs_pick
    from (
        select
            bs_group,
            bs_b,
            n_values,
            (((bs_x * bs_x) % 2147483647) * 48271) % 2147483647 as bs_h
        from (
            select
                bs_group,
                bs_b,
                n_values,
                (bs_b * 1000003 + bs_i * 7919 + 12345) % 2147483647 as bs_x
            from (
                select bs_group, bs_b, n_values, {{ series_rows('n_values') }} as bs_i
                from bs_group_resamples
            ) as bs_di
        ) as bs_dx
    ) as bs_dh
),

-- the hint keeps Spark from broadcasting the generated draws (its size estimate of a generator is its input's)
bs_statistics as (
    select /*+ BROADCAST(r) */
        d.bs_group,
        d.bs_b,
        cast(sum(r.bs_num) as double) / cast(sum(r.bs_den) as double) as bs_stat
    from bs_draws as d
    inner join bs_indexed as r
        on r.bs_group = d.bs_group
       and r.bs_idx = d.bs_pick
    group by d.bs_group, d.bs_b
),

bs_ordered as (
    select
        bs_group,
        bs_stat,
        row_number() over (partition by bs_group order by bs_stat) - 1 as bs_pos
    from bs_statistics
),

bs_bounds as (
    select
        bs_group,
        {%- for bd in ns.bounds %}
        {%- set a = 'max(case when bs_pos = ' ~ bd.lo ~ ' then bs_stat end)' %}
        {%- set b = 'max(case when bs_pos = ' ~ (bd.lo + 1) ~ ' then bs_stat end)' %}
        {%- if bd.t >= 0.5 %}
        {{ b }} - ({{ b }} - {{ a }}) * cast('{{ bd.one_minus_t }}' as double) as {{ 'ci_low' if loop.first else 'ci_high' }}{{ ',' if loop.first }}
        {%- else %}
        {{ a }} + ({{ b }} - {{ a }}) * cast('{{ bd.t }}' as double) as {{ 'ci_low' if loop.first else 'ci_high' }}{{ ',' if loop.first }}
        {%- endif %}
        {%- endfor %}
    from bs_ordered
    where bs_pos in ({% for bd in ns.bounds %}{{ bd.lo }}, {{ bd.lo + 1 }}{{ ', ' if not loop.last }}{% endfor %})
    group by bs_group
)

select
    {%- for c in g %}
    gr.{{ c }},
    {%- endfor %}
    gr.n_values,
    bd.ci_low,
    bd.ci_high,
    case when gr.n_values < 2 then 'fewer than 2 values: no interval' end as ci_reason
from bs_groups as gr
left join bs_bounds as bd on bd.bs_group = gr.bs_group
{%- endmacro %}
