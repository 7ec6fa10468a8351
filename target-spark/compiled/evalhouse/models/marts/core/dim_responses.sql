-- Every response of every suite with its text as sent (byte-exact) and its item.
select
    responses.suite,
    responses.response_id,
    responses.item_id,
    responses.system_id,
    responses.repetition,
    responses.response_text,
    responses.raw_output,
    responses.is_reference_system
from evalhouse.int_responses as responses