{{ config(materialized='table') }}
-- GRADE task-level scores per pack x task x model: each dimension = mean over the runs (consistency: over the runs
-- by construction); composite = project weights (leaderboard); rubric_composite = the task's own weights.
with per_run as (
    select
        pack_id, task_id, item_id, track, system_id,
        count(*)                                                   as n_repetitions,
        {{ grade_score('avg(grounding_accuracy)') }}               as grounding_accuracy,
        {{ grade_score('avg(insight_quality)') }}                  as insight_quality,
        {{ grade_score('avg(evidence_linkage)') }}                 as evidence_linkage,
        {{ grade_score('avg(calibration_limitation_handling)') }}  as calibration_limitation_handling,
        {{ grade_score('avg(structure_usability)') }}              as structure_usability
    from {{ ref('fct_grade__response_scores') }}
    group by pack_id, task_id, item_id, track, system_id
),

scores as (
    select
        per_run.*,
        {{ grade_score('c.consistency') }}                         as consistency,
        c.consistency_reason
    from per_run
    left join {{ ref('fct_grade__consistency') }} as c
        on c.item_id = per_run.item_id
       and c.system_id = per_run.system_id
)

select
    s.pack_id,
    s.task_id,
    s.track,
    s.system_id,
    s.n_repetitions,
    {%- for d in grade_dimensions() %}
    s.{{ d }},
    {%- endfor %}
    {{ grade_composite('w', 's') }}                                as composite,
    {{ grade_composite('t', 's') }}                                as rubric_composite,
    {{ grade_missing_dimensions('s') }}                            as missing_dimensions
from scores as s
cross join {{ ref('int_grade__project_weights') }} as w
inner join {{ ref('int_grade__tasks') }} as t
    on t.item_id = s.item_id
