{{ config(materialized='table') }}
-- GRADE track-level scores per pack x track x model: each dimension = arithmetic mean of the task-level scores (NULL task
-- scores left out); composite = the project-weighted sum of these dimension scores; mean_task_composite = the mean
-- of the task composites (equal to composite when no dimension is NULL).
with levels as (
    select
        pack_id, track,
        model,
        count(*)                                                   as n_tasks,
        {%- for d in grade_dimensions() %}
        {{ grade_score('avg(' ~ d ~ ')') }}                        as {{ d }},
        {%- endfor %}
        {{ grade_score('avg(composite)') }}                        as mean_task_composite
    from {{ ref('fct_grade__task_scores') }}
    group by pack_id, track, model
)

select
    s.*,
    {{ grade_composite('w', 's') }}                                as composite,
    {{ grade_missing_dimensions('s') }}                            as missing_dimensions
from levels as s
cross join {{ ref('int_grade__project_weights') }} as w
