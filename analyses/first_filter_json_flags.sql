-- The first filter's three JSON flags (macros/first_filter.sql: json_strict, json_fenced, json_extractable) over the
-- relation json_flag_cases (case_id, raw_output): python/tests/test_first_filter_json.py compares them with
-- evalhouse.text.checks.json_flags, the Python reference, on generated outputs.
select
    case_id,
    {{ json_strict('raw_output') }}      as json_strict,
    {{ json_fenced('raw_output') }}      as json_fenced,
    {{ json_extractable('raw_output') }} as json_extractable
from json_flag_cases
