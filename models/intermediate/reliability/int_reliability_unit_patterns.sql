-- The reliability marts' sufficient statistics (fct_interrater_reliability, fct_coder_set_alpha): the scores of
-- int_reliability_scores counted by unit pattern instead of listed row by row. A unit is a response of a suite x task
-- x rubric version x criterion (int_reliability_units); its human pattern (human_scores) is the list of its usable
-- human scores, {rater_id, score_value} in rater_id order (empty when none was usable).
-- The human raters' rows (judge_rater_id NULL): one per group x system x human pattern, counting every response with
-- a human rating row, usable or not. A judge's rows (a judge or program rater; a metric scores on its own scale, not
-- the rubric's, and is never a coder): one per group x judge x system x human pattern x judge_score, counting the
-- responses the judge scored. Krippendorff's alpha, ICC(1,1), Fleiss' kappa, Gwet's AC1, agreement, Spearman's rho
-- per rater pair, each coder set's alpha (humans + judge: the judge's rows plus the human rows it did not score)
-- and the system means depend on the units only through these counts (evalhouse.stats.unit_patterns,
-- evalhouse.stats.reliability): 100k responses x 2 raters on a 0-2 scale are at most 9 rows per system.
-- Incremental on DuckDB per suite (a per-suite model of the rating chain, macros/rating_chain.sql): recomputes the
-- suites whose ratings changed.
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('suite') }}") }}
with units as (
    select * from {{ ref('int_reliability_units') }}
    where {{ affected_suites('suite') }}
),

human_patterns as (
    select
        suite, task, rubric_id, rubric_version, criterion, system_id, human_scores,
        count(*)                                                                as n_units,
        cast(sum(n_human_excluded) as bigint)                                   as n_ratings_excluded,
        min(min_score)                                                          as min_score,
        max(max_score)                                                          as max_score
    from units
    where n_human_rows > 0
    group by suite, task, rubric_id, rubric_version, criterion, system_id, human_scores
),

judge_scores as (
    -- one row per response x judge score
    select
        suite, task, rubric_id, rubric_version, criterion, system_id, human_scores,
        unnest(judge_scores)                                                    as judge
    from units
    where len(judge_scores) > 0
),

judge_units as (
    select
        suite, task, rubric_id, rubric_version, criterion, system_id, human_scores,
        struct_extract(judge, 'rater_id')                                       as judge_rater_id,
        struct_extract(judge, 'rater_kind')                                     as judge_rater_kind,
        struct_extract(judge, 'score_value')                                    as judge_score
    from judge_scores
),

judge_patterns as (
    select
        suite, task, rubric_id, rubric_version, criterion, judge_rater_id,
        min(judge_rater_kind)                                                   as judge_rater_kind,
        system_id, human_scores, judge_score,
        count(*)                                                                as n_units
    from judge_units
    group by suite, task, rubric_id, rubric_version, criterion, judge_rater_id, system_id, human_scores, judge_score
)

select
    suite, task, rubric_id, rubric_version, criterion,
    cast(null as varchar)                                                       as judge_rater_id,
    cast(null as varchar)                                                       as judge_rater_kind,
    system_id, human_scores,
    cast(null as double)                                                        as judge_score,
    n_units, n_ratings_excluded, min_score, max_score
from human_patterns

union all

select
    suite, task, rubric_id, rubric_version, criterion, judge_rater_id, judge_rater_kind, system_id, human_scores,
    judge_score, n_units,
    cast(null as bigint)                                                        as n_ratings_excluded,
    cast(null as integer)                                                       as min_score,
    cast(null as integer)                                                       as max_score
from judge_patterns
