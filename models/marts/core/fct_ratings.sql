-- Every rating ever recorded (seeds and the append-only store), one row per criterion score, with its provenance
-- and checks: nothing is dropped; invalid scores have score NULL and score_problem set.
-- Incremental on DuckDB like int_ratings (the changed (source_file, response_id) pairs, macros/rating_chain.sql).
{{ config(materialized=rating_chain_materialized(), unique_key='rating_id', incremental_strategy='delete+insert',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('rating') }}") }}
select
    ratings.rating_id,
    ratings.suite,
    ratings.response_id,
    responses.item_id,
    responses.system_id,
    ratings.response_known,
    ratings.rater_id,
    ratings.rater_kind,
    ratings.criterion,
    ratings.score,
    ratings.score_text,
    ratings.score_problem,
    ratings.reason,
    ratings.rubric_id,
    ratings.rubric_version,
    ratings.is_blind,
    ratings.rated_at,
    ratings.source_file,
    ratings.source_row
from {{ ref('int_ratings') }} as ratings
left join {{ ref('int_responses') }} as responses
    on responses.response_id = ratings.response_id
where {{ affected_rating_rows('ratings') }}
