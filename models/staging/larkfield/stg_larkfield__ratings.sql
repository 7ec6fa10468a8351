-- The lesson's reference scores (course team, rubric v1), one row per reply x criterion.
-- The printed total and ready flag are kept for audit only; the marts recompute both.
with scores as (
    select * from {{ ref('larkfield_reference_scores') }}
),

long as (
    {%- for criterion in ['correctness', 'completeness', 'format_compliance', 'appropriate_abstention'] %}
    select ticket_id, model_run, '{{ criterion }}' as criterion, cast({{ criterion }} as varchar) as score_text,
           reason, total, ready, {{ loop.index }} as criterion_position
    from scores
    {%- if not loop.last %}
    union all
    {%- endif %}
    {%- endfor %}
)

select
    'larkfield'                                           as suite,
    'seed:larkfield_reference_scores'                     as source_file,
    cast(null as integer)                                 as source_row,
    {{ larkfield_response_id('ticket_id', 'model_run') }} as response_id,
    'course_team'                                         as rater_id,
    'human'                                               as rater_kind,
    criterion,
    score_text,
    cast(reason as varchar)                               as reason,
    'larkfield_support'                                   as rubric_id,
    1                                                     as rubric_version,
    cast(null as boolean)                                 as is_blind,
    cast(null as timestamp)                               as rated_at,
    try_cast(total as integer)                            as reported_total,
    try_cast(ready as boolean)                            as reported_ready
from long
