-- Two readers on shared replies: one row per pair of raters (rater_a < rater_b) x response x rubric version x
-- measure, where measure is a criterion, 'all_criteria' (the complete score vectors, as text) or 'ready'.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
-- Adjudicators (rater_kind adjudicator) are left out: an adjudication settles the readers' disagreement after
-- reading them, so it is not a reading to agree with (fct_round_disagreements shows it; int_reliability_scores
-- leaves it out too).
-- Built after int_reliability_scores, though it reads nothing of it (the depends_on line below is the only link), and
-- before int_reliability_units: the chain's large queries run one at a time (see int_reliability_scores). Side by
-- side, this one and int_reliability_units ran out of memory under EVALHOUSE_MEMORY_LIMIT=2.5GB at a million replies.
-- On DuckDB only: the reliability models are not built on Spark.
{% if target.type == 'duckdb' -%}
-- depends_on: {{ ref('int_reliability_scores') }}
{% endif -%}
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
-- only the columns used: each CTE is read more than once, and DuckDB keeps such a CTE with every column it selects
-- (select * kept 21 columns of 8M rows at a million replies: 11 s -> 10 s, 5.6 -> 4.4 GB)
with scores as (
    select suite, rubric_id, rubric_version, rater_id, response_id, criterion, criterion_order, score
    from {{ ref('int_effective_scores') }}
    where score_status = 'scored' and rater_kind <> 'adjudicator' and {{ affected_responses('response_id') }}
),

replies as (
    select
        reply_scores.suite, reply_scores.rubric_id, reply_scores.rubric_version, reply_scores.rater_id,
        reply_scores.response_id, reply_scores.score_status, reply_scores.ready
    from {{ ref('int_reply_scores') }} as reply_scores
    where reply_scores.rater_kind <> 'adjudicator' and {{ affected_responses('reply_scores.response_id') }}
),

criterion_pairs as (
    select
        a.suite, a.rubric_id, a.rubric_version, a.rater_id as rater_a, b.rater_id as rater_b, a.response_id,
        a.criterion as measure, a.criterion_order as measure_order,
        cast(a.score as string) as value_a, cast(b.score as string) as value_b
    from scores as a
    inner join scores as b
        on b.response_id = a.response_id
       and b.rubric_id = a.rubric_id
       and b.rubric_version = a.rubric_version
       and b.criterion = a.criterion
       and a.rater_id < b.rater_id
),

vectors as (
    select suite, rubric_id, rubric_version, rater_id, response_id,
           {{ string_agg_ordered("cast(score as string)", "criterion_order", ",") }} as score_vector,
           count(*) as n_scored
    from scores
    group by suite, rubric_id, rubric_version, rater_id, response_id
),

complete_vectors as (
    select vectors.*
    from vectors
    inner join replies
        on replies.response_id = vectors.response_id
       and replies.rater_id = vectors.rater_id
       and replies.rubric_id = vectors.rubric_id
       and replies.rubric_version = vectors.rubric_version
    where replies.score_status = 'complete'
),

vector_pairs as (
    select a.suite, a.rubric_id, a.rubric_version, a.rater_id as rater_a, b.rater_id as rater_b, a.response_id,
           'all_criteria' as measure, 900 as measure_order, a.score_vector as value_a, b.score_vector as value_b
    from complete_vectors as a
    inner join complete_vectors as b
        on b.response_id = a.response_id and b.rubric_id = a.rubric_id and b.rubric_version = a.rubric_version
       and a.rater_id < b.rater_id
),

ready_pairs as (
    select a.suite, a.rubric_id, a.rubric_version, a.rater_id as rater_a, b.rater_id as rater_b, a.response_id,
           'ready' as measure, 901 as measure_order,
           cast(a.ready as string) as value_a, cast(b.ready as string) as value_b
    from replies as a
    inner join replies as b
        on b.response_id = a.response_id and b.rubric_id = a.rubric_id and b.rubric_version = a.rubric_version
       and a.rater_id < b.rater_id
    where a.score_status = 'complete' and b.score_status = 'complete'
      and a.ready is not null and b.ready is not null
)

select * from criterion_pairs
union all
select * from vector_pairs
union all
select * from ready_pairs
