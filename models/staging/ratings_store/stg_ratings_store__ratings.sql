-- Every row of the append-only ratings store (data/ratings/*/*.csv: human imports, judge and program ratings),
-- as text; blind rows (packet_id + letter) are resolved to a response through the blind keys only here.
with numbered as (
    select * from {{ ref('base_ratings_store__ratings') }}
),

keys as (
    select * from {{ ref('base_ratings_store__blind_keys') }}
)

select
    numbered.suite,
    numbered.filename                                   as source_file,
    cast(numbered.source_row as integer)                as source_row,
    coalesce(nullif(numbered.response_id, ''), keys.response_id) as response_id,
    nullif(numbered.packet_id, '')                      as packet_id,
    nullif(numbered.letter, '')                         as letter,
    numbered.rater_id,
    -- an empty kind (a file written by hand or by an older evalhouse) is human, the default everywhere else
    coalesce(nullif(numbered.rater_kind, ''), 'human')  as rater_kind,
    numbered.criterion,
    numbered.score                                      as score_text,
    numbered.reason,
    numbered.rubric_id,
    try_cast(numbered.rubric_version as integer)        as rubric_version,
    try_cast(numbered.is_blind as boolean)              as is_blind,
    try_cast(numbered.rated_at as timestamp)            as rated_at,
    -- the rater's own verdict, for audit only (never scored); empty in files written before these columns existed
    try_cast(nullif(numbered.reported_decision, '') as boolean) as reported_decision,
    try_cast(nullif(numbered.reported_total, '') as integer)    as reported_total
from numbered
left join keys
    on keys.packet_id = numbered.packet_id
   and keys.letter = numbered.letter
