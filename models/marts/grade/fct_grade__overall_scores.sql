{{ config(materialized='table') }}
-- GRADE overall-level scores per model over all tasks of all packs (the leaderboard): each dimension = arithmetic mean of the task-level scores (NULL task
-- scores left out); composite = the project-weighted sum of these dimension scores; mean_task_composite = the mean
-- of the task composites (equal to composite when no dimension is NULL).
with levels as (
    select
        
        model,
        count(*)                                                   as n_tasks,
        {%- for d in grade_dimensions() %}
        {{ grade_score('avg(' ~ d ~ ')') }}                        as {{ d }},
        {%- endfor %}
        {{ grade_score('avg(composite)') }}                        as mean_task_composite
    from {{ ref('fct_grade__task_scores') }}
    group by model
)

select
    s.*,
    {{ grade_composite('w', 's') }}                                as composite,
    {{ grade_missing_dimensions('s') }}                            as missing_dimensions
from levels as s
cross join {{ ref('int_grade__project_weights') }} as w
