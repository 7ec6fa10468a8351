{#- The six GRADE dimensions in results.json order. -#}
{% macro grade_dimensions() -%}
  {{ return(['grounding_accuracy', 'insight_quality', 'evidence_linkage', 'calibration_limitation_handling',
             'consistency', 'structure_usability']) }}
{%- endmacro %}

{#- grade_score(expr): a score in [0, 1] as DECIMAL(18,12) (DuckDB's avg and / return DOUBLE). -#}
{% macro grade_score(expr) -%}
cast({{ expr }} as decimal(18, 12))
{%- endmacro %}

{#- grade_composite(w, s): weighted sum sum_d w.w_<d> * s.<d> in exact DECIMAL; NULL when any dimension is NULL. -#}
{% macro grade_composite(w, s) -%}
cast(
{%- for d in grade_dimensions() %}
    {{ w }}.w_{{ d }} * {{ s }}.{{ d }}{{ ' +' if not loop.last }}
{%- endfor %}
  as decimal(18, 12))
{%- endmacro %}

{#- grade_missing_dimensions(s): comma-separated list of the dimensions that are NULL in s (NULL when none). -#}
{% macro grade_missing_dimensions(s) -%}
nullif(concat_ws(', '
{%- for d in grade_dimensions() %}, case when {{ s }}.{{ d }} is null then '{{ d }}' end{% endfor -%}
), '')
{%- endmacro %}

{#- grade_level_scores(group_cols): GRADE scores at a level above the task, per group_cols x system_id. Each dimension
    is the arithmetic mean of the task-level scores (NULL task scores left out); composite is the project-weighted
    sum of these dimension scores; mean_task_composite is the mean of the task composites (equal to composite when
    no dimension is NULL). Used by the track, pack and overall marts. -#}
{% macro grade_level_scores(group_cols) -%}
with levels as (
    select
        {%- for c in group_cols %}
        {{ c }},
        {%- endfor %}
        system_id,
        count(*)                                                   as n_tasks,
        {%- for d in grade_dimensions() %}
        {{ grade_score('avg(' ~ d ~ ')') }}                        as {{ d }},
        {%- endfor %}
        {{ grade_score('avg(composite)') }}                        as mean_task_composite
    from {{ ref('fct_grade__task_scores') }}
    group by {{ (group_cols + ['system_id']) | join(', ') }}
)

select
    s.*,
    {{ grade_composite('w', 's') }}                                as composite,
    {{ grade_missing_dimensions('s') }}                            as missing_dimensions
from levels as s
cross join {{ ref('int_grade__project_weights') }} as w
{%- endmacro %}
