-- structured_metrics of GRADE responses as reported labels: label_name = metric key, label_value = value as text.
with responses as (
    select response_id, structured_metrics from {{ ref('base_grade__pack_responses') }}
),

entries as (
    select response_id, {{ unnest_map('structured_metrics', 'label_name', 'label_value') }}
    from responses
)

select
    'grade'             as suite,
    response_id,
    label_name,
    label_value
from entries
