-- Answer keys as gold rows: expected language and labels, required and forbidden phrases ('|' separates several).
with keys as (
    select * from {{ ref('larkfield_answer_keys') }}
),

required as (
    select ticket_id, trim(piece) as phrase
    from (select ticket_id, {{ split_pieces('required_phrases', '|') }} as piece from keys where required_phrases is not null) as r
),

forbidden as (
    select ticket_id, trim(piece) as phrase
    from (select ticket_id, {{ split_pieces('forbidden_phrases', '|') }} as piece from keys where forbidden_phrases is not null) as f
),

gold as (
    select ticket_id, 'language' as gold_kind, 'language' as gold_key, cast(language as varchar) as gold_value from keys
    union all
    select ticket_id, 'label', 'category', lower(cast(category as varchar)) from keys
    union all
    select ticket_id, 'label', 'needs_human', lower(cast(needs_human as varchar)) from keys
    union all
    select ticket_id, 'required_phrase', phrase, phrase from required where phrase <> ''
    union all
    select ticket_id, 'forbidden_phrase', phrase, phrase from forbidden where phrase <> ''
)

select
    'larkfield'                     as suite,
    cast(ticket_id as varchar)      as item_id,
    gold_kind,
    gold_key,
    gold_value,
    cast(null as decimal(38, 10))   as abs_tol,
    cast(null as decimal(38, 10))   as rel_tol
from gold
