-- Numeric structured_metrics values (the response labels) per GRADE pack response, for consistency's metric
-- variance: a value is numeric when it holds exactly one number token and no letter outside it ("(42)." -> 42,
-- "11.98 %" -> 11.98, "T-007" and "3 of 5" -> not numeric). Same rule as evalhouse.grade.text.metric_number (tested
-- against it).
with labels as (
    select r.item_id, r.system_id, r.repetition, l.label_name as metric_key, l.label_value,
           {{ grade_number_tokens('l.label_value') }} as tokens
    from {{ ref('int_response_labels') }} as l
    inner join {{ ref('int_grade__responses') }} as r on r.response_id = l.response_id
),

single as (
    select item_id, system_id, repetition, metric_key, label_value, {{ list_element('tokens', 1) }} as token
    from labels
    where {{ list_size('tokens') }} = 1
)

select
    item_id,
    system_id,
    repetition,
    metric_key,
    cast({{ grade_parse_number('token') }} as double) as metric_value
from single
where not {{ grade_has_letter("replace(label_value, token, '')") }}
