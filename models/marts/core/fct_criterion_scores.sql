-- One row per response x rater x rubric version x criterion: the effective score with its provenance
-- (rated under which version, carried forward, stale), for drill-down and agreement.
-- A view of int_effective_scores (which carries each response's item and run): the chain's incremental table is
-- written once, and the 8M rows at a million replies are not copied on every build.
{{ config(materialized='view') }}
select
    scores.suite,
    scores.response_id,
    scores.item_id,
    scores.system_id,
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
