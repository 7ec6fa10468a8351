-- The listed parts of each pack response (responses.jsonl, source grade.responses), one row per item: key findings
-- and limitations with their 1-based position (rank) in the response. response_id as the suite's responses have it
-- (evalhouse.grade.packs.response_id).
with responses as (
    select
        'grade-' || pack_id || '-' || task_id || '-' || {{ short_hash('model') }} || '-r' || run as response_id,
        key_findings,
        limitations
    from {{ read_source('grade', 'responses') }}
),

findings as (
    select response_id, {{ unnest_positions('key_findings', 'item_text', 'position') }}
    from responses
),

limitations as (
    select response_id, {{ unnest_positions('limitations', 'item_text', 'position') }}
    from responses
)

select response_id, 'key_finding' as item_kind, cast(position as integer) as position, item_text from findings
union all
select response_id, 'limitation' as item_kind, cast(position as integer) as position, item_text from limitations
