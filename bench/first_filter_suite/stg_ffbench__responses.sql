-- Replies of the performance generator (one JSON object a line: id, run, lang, text, required, forbidden).
-- raw_output is the stored text; response_text is the reply a suite would stage: the "answer" of the JSON (or of
-- its ```json fence), or the whole text when it does not parse.
with raw as (
    select id, run, text,
           case when regexp_matches(text, '^```json\n(?s:.*)\n```$') then regexp_extract(text, '^```json\n((?s:.*))\n```$', 1)
                else text end as body
    from read_json('{{ var("ffbench_file") }}', format = 'newline_delimited',
                   columns = {id: 'BIGINT', run: 'VARCHAR', lang: 'VARCHAR', text: 'VARCHAR',
                              required: 'VARCHAR[]', forbidden: 'VARCHAR[]'})
)
select 'ffbench' as suite, 'r' || id as response_id, 'i' || id as item_id, run as system_id, 1 as repetition,
       coalesce(case when json_valid(body) then json_extract_string(body, '$.answer') end, text) as response_text,
       text as raw_output, false as is_reference_system
from raw
