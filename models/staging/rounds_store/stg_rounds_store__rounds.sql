-- One row per rating round, typed. raters stays the ';'-separated list as written.
select
    cast(round_id as varchar)                            as round_id,
    cast(suite as varchar)                               as suite,
    cast(rubric_id as varchar)                           as rubric_id,
    try_cast(rubric_version as integer)                  as rubric_version,
    cast(scope as varchar)                               as scope,
    try_cast(nullif(scope_sample_size, '') as integer)   as scope_sample_size,
    cast(nullif(scope_filter, '') as varchar)            as scope_filter,
    try_cast(seed as integer)                            as seed,
    try_cast(readers_per_reply as integer)               as readers_per_reply,
    cast(raters as varchar)                              as raters,
    try_cast(due_date as date)                           as due_date,
    try_cast(lock_minutes as integer)                    as lock_minutes,
    try_cast(n_replies as integer)                       as n_replies,
    try_cast(n_packets as integer)                       as n_packets,
    cast(created_by as varchar)                          as created_by,
    try_cast(replace(replace(created_at, 'T', ' '), 'Z', '') as timestamp) as created_at,
    cast(filename as varchar)                            as source_file
from {{ read_source('rounds_store', 'definitions') }}
where nullif(round_id, '') is not null
