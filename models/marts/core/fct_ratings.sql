-- Every rating ever recorded (seeds and the append-only store), one row per criterion score, with its provenance
-- and checks: nothing is dropped; invalid scores have score NULL and score_problem set.
-- A view of int_ratings (which joins each rating's item and run): the chain's incremental table is written once, and
-- the 8M rows at a million replies are not copied on every build.
{{ config(materialized='view') }}
select
    ratings.rating_id,
    ratings.suite,
    ratings.response_id,
    ratings.item_id,
    ratings.system_id,
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
