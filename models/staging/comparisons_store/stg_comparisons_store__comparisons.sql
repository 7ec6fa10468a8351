-- Every row of the comparisons store (people's choices from the pairwise scoring page and judge-run calls), typed.
-- preference is P(B better than A) as written (checked downstream, not here: a bad value is flagged, not dropped);
-- failed judge calls keep their failure_reason.
select
    cast(suite as varchar)                          as suite,
    cast(coalesce(nullif(source_file, ''), filename) as varchar) as source_file,
    try_cast(source_row as integer)                 as source_row,
    cast(item_id as varchar)                        as item_id,
    cast(response_id_a as varchar)                  as response_id_a,
    cast(response_id_b as varchar)                  as response_id_b,
    cast(rater_id as varchar)                       as rater_id,
    cast(coalesce(nullif(rater_kind, ''), 'human') as varchar) as rater_kind,
    cast(nullif(shown_first, '') as varchar)        as shown_first,
    nullif(preference, '')                          as preference_text,
    cast(nullif(preference_label, '') as varchar)   as preference_label,
    cast(nullif(reason, '') as varchar)             as reason,
    try_cast(rated_at as timestamp)                 as rated_at,
    cast(nullif(judge_model, '') as varchar)        as judge_model,
    cast(nullif(failure_reason, '') as varchar)     as failure_reason
from {{ read_source('comparisons_store', 'comparisons') }}
where nullif(suite, '') is not null
