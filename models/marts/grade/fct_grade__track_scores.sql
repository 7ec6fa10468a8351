{{ config(materialized='table') }}
-- GRADE track-level scores per pack x track x model: see the grade_level_scores macro (mean of the task scores per dimension,
-- project-weighted composite).
{{ grade_level_scores(['pack_id', 'track']) }}
