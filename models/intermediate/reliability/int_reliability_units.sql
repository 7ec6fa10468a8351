-- One row per suite x task x rubric version x criterion x response with a human, judge or program rating row: the
-- response's usable human scores and judge / program scores as lists sorted by rater_id (a metric scores on its own
-- scale, not the rubric's: it is never a coder), and its human rows' counts. int_reliability_unit_patterns counts
-- these by pattern for the reliability marts.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql): a row depends on
-- its response's rows of int_reliability_scores only.
-- Built after int_rater_pair_scores, though it reads nothing of it (the depends_on line below is the only link): the
-- chain's large queries run one at a time (see int_reliability_scores).
-- depends_on: {{ ref('int_rater_pair_scores') }}
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
select
    suite,
    task,
    rubric_id,
    rubric_version,
    criterion,
    response_id,
    system_id,
    -- list_sort of a plain list: an ordered aggregate, list(... order by ...), is ~4x slower on 400k units
    coalesce(
        list_sort(list({ 'rater_id': rater_id, 'score_value': score_value })
            filter (where rater_kind = 'human' and score_value is not null)),
        cast([] as struct(rater_id varchar, score_value double)[])
    )                                                                           as human_scores,
    coalesce(
        list_sort(list({ 'rater_id': rater_id, 'rater_kind': rater_kind, 'score_value': score_value })
            filter (where rater_kind <> 'human' and score_value is not null)),
        cast([] as struct(rater_id varchar, rater_kind varchar, score_value double)[])
    )                                                                           as judge_scores,
    count(*) filter (where rater_kind = 'human')                                as n_human_rows,
    coalesce(sum(n_excluded) filter (where rater_kind = 'human'), 0)            as n_human_excluded,
    min(min_score) filter (where rater_kind = 'human')                          as min_score,
    max(max_score) filter (where rater_kind = 'human')                          as max_score
from {{ ref('int_reliability_scores') }}
where rater_kind in ('human', 'judge', 'program')
  and {{ affected_responses('response_id') }}
group by suite, task, rubric_id, rubric_version, criterion, response_id, system_id
