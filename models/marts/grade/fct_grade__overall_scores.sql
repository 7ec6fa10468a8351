{{ config(materialized='table') }}
-- GRADE overall-level scores per model over all tasks of all packs (the leaderboard): see the grade_level_scores macro (mean of the task scores per dimension,
-- project-weighted composite).
{{ grade_level_scores([]) }}
