-- Per reply (one item each): the expected language and the required / forbidden phrases.
with raw as (
    select id, lang, required, forbidden
    from read_json('{{ var("ffbench_file") }}', format = 'newline_delimited',
                   columns = {id: 'BIGINT', run: 'VARCHAR', lang: 'VARCHAR', text: 'VARCHAR',
                              required: 'VARCHAR[]', forbidden: 'VARCHAR[]'})
),
kinds as (
    select id, 'language' as gold_kind, 'language' as gold_key, lang as gold_value from raw
    union all
    select id, 'required_phrase', p, p from (select id, unnest(required) as p from raw)
    union all
    select id, 'forbidden_phrase', p, p from (select id, unnest(forbidden) as p from raw)
)
select 'ffbench' as suite, 'i' || id as item_id, gold_kind, gold_key, gold_value,
       cast(null as decimal(38, 10)) as abs_tol, cast(null as decimal(38, 10)) as rel_tol
from kinds
