-- One row per response x rater x rubric version x criterion: the effective score with its provenance
-- (rated under which version, carried forward, stale), for drill-down and agreement.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
{{ config(materialized=rating_chain_materialized(), unique_key='response_id', incremental_strategy='delete+insert',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
select
    scores.suite,
    scores.response_id,
    responses.item_id,
    responses.system_id,
    scores.rater_id,
    scores.rater_kind,
    scores.rubric_id,
    scores.rubric_version,
    scores.criterion,
    scores.criterion_order,
    scores.min_score,
    scores.max_score,
    scores.score,
    scores.direction,
    scores.points,
    scores.score_status,
    scores.reason,
    scores.rating_id,
    scores.rated_under_version,
    scores.carried_forward,
    scores.is_stale
from {{ ref('int_effective_scores') }} as scores
left join {{ ref('int_responses') }} as responses
    on responses.suite = scores.suite and responses.response_id = scores.response_id
where {{ affected_responses('scores.response_id') }}
