-- The first filter's three JSON flags (macros/first_filter.sql: json_strict, json_fenced, json_extractable) over the
-- relation json_flag_cases (case_id, raw_output): python/tests/test_first_filter_json.py compares them with
-- evalhouse.text.checks.json_flags, the Python reference, on generated outputs. json_extractable is computed twice:
-- alone, and as int_first_filter computes it, reusing the strict and fenced flags (the two must agree).
with flags as (
    select
        case_id,
        raw_output,
        {{ json_strict('raw_output') }} as json_strict,
        {{ json_fenced('raw_output') }} as json_fenced
    from json_flag_cases
)

select
    case_id,
    json_strict,
    json_fenced,
    {{ json_extractable('raw_output') }}                                  as json_extractable,
    {{ json_extractable('raw_output', 'json_strict', 'json_fenced') }} as json_extractable_reusing
from flags
