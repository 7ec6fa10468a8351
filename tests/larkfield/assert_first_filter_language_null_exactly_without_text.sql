-- detected_language is NULL exactly for the replies without text, with the reason 'no reply text'; a reply with
-- text always has a code ('und' when CLD2 cannot tell). Rows returned are failures.
select suite, response_id, has_text, detected_language, detected_language_reason
from {{ ref('fct_first_filter') }}
where (has_text and (detected_language is null or detected_language_reason is not null))
   or (not has_text and (detected_language is not null or detected_language_reason is distinct from 'no reply text'))
