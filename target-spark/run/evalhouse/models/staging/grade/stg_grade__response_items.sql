create or replace view evalhouse.stg_grade__response_items
  
  
  as
    -- The listed parts of each pack response (responses.jsonl, source grade.responses), one row per item: key findings
-- and limitations with their 1-based position (rank) in the response. response_id as the suite's responses have it
-- (evalhouse.grade.packs.response_id).
with responses as (
    select
        'grade-' || pack_id || '-' || task_id || '-' || substr(md5(model), 1, 12) || '-r' || run as response_id,
        key_findings,
        limitations
    from json.`data/grade/packs/*/responses.jsonl`
),

findings as (
    select response_id, inline(transform(key_findings, (list_value, list_index) -> struct(list_value as item_text, list_index + 1 as position)))
    from responses
),

limitations as (
    select response_id, inline(transform(limitations, (list_value, list_index) -> struct(list_value as item_text, list_index + 1 as position)))
    from responses
)

select response_id, 'key_finding' as item_kind, cast(position as integer) as position, item_text from findings
union all
select response_id, 'limitation' as item_kind, cast(position as integer) as position, item_text from limitations
