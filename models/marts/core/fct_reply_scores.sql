-- One row per response x rater x rubric version: total, status and ready, recomputed from the criterion scores
-- (int_reply_scores), with the response's item, run and repetition.
-- A rater's or judge's own total / ready fields are never used here (they stay in int_ratings for audit).
-- ready follows the rubric's ready_gate rule (int_rubric_rules); NULL when the rubric has none. Totals and the
-- ready rule use points (direction-adjusted: a lower-is-better criterion counts max + min - score).
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
select
    replies.suite,
    replies.response_id,
    responses.item_id,
    responses.system_id,
    responses.repetition,
    replies.rater_id,
    replies.rater_kind,
    replies.rubric_id,
    replies.rubric_version,
    replies.score_status,
    replies.total,
    replies.max_total,
    replies.ready,
    replies.n_criteria,
    replies.n_criteria_scored,
    replies.n_criteria_missing,
    replies.n_invalid_scores,
    replies.n_at_minimum,
    replies.n_carried_forward,
    replies.n_stale_scores
from {{ ref('int_reply_scores') }} as replies
left join {{ ref('int_responses') }} as responses
    on responses.suite = replies.suite and responses.response_id = replies.response_id
where {{ affected_responses('replies.response_id') }}
