{{ config(materialized='table') }}
-- GRADE pack-level scores per pack x model: see the grade_level_scores macro (mean of the task scores per dimension,
-- project-weighted composite).
{{ grade_level_scores(['pack_id']) }}
