-- Sottana ratings, one row per score:
--   * human: the 3 Prolific raters (rater_id prolific_<first 5 characters>, as the authors' tables), attention
--     checks dropped; Potato label key `criterion` is summary_1, `criterion_<j>` is summary_j. GEC grammaticality
--     and overcorrection buttons are stored 1-based: 1 is subtracted (0 / 1 / 2 or more errors; No..Substantial).
--   * judge: gpt-4; GEC text answers mapped through sottana_judge_value_map; numbers kept as given (4.5 included).
with human as (
    select * from {{ read_parquet_source('sottana', 'human') }}
    where item_raw_id not like 'attention_check%'
),

human_parsed as (
    select
        human.*,
        case when right(label_key, 2) in ('_2', '_3', '_4') then cast(right(label_key, 1) as integer) else 1 end
            as system_position,
        case when right(label_key, 2) in ('_2', '_3', '_4') then left(label_key, length(label_key) - 2) else label_key end
            as criterion
    from human
),

gpt4 as (
    select
        gpt4.*,
        row_number() over (order by task, item_raw_id, system_id, criterion) as source_row
    from {{ read_parquet_source('sottana', 'gpt4') }} as gpt4
),

outputs as (
    select task, item_raw_id, system_position, system_id
    from {{ read_parquet_source('sottana', 'outputs') }}
),

value_map as (
    select * from {{ ref('sottana_judge_value_map') }}
)

select
    'sottana'                                                                   as suite,
    human_parsed.source_file,
    cast(human_parsed.source_line as integer)                                   as source_row,
    'sottana-' || human_parsed.task || '-' || substr(human_parsed.item_raw_id, 1, 16) || '-'
        || cast(human_parsed.system_position as varchar)                        as response_id,
    'prolific_' || substr(human_parsed.rater, 1, 5)                             as rater_id,
    'human'                                                                     as rater_kind,
    human_parsed.criterion,
    case
        when human_parsed.task = 'gec' and human_parsed.criterion in ('grammaticality', 'overcorrection')
            then coalesce(cast(try_cast(human_parsed.value as integer) - 1 as varchar), human_parsed.value)
        else human_parsed.value
    end                                                                         as score_text,
    cast(null as varchar)                                                       as reason,
    'sottana_' || human_parsed.task                                             as rubric_id,
    1                                                                           as rubric_version,
    cast(null as boolean)                                                       as is_blind,
    cast(null as timestamp)                                                     as rated_at
from human_parsed
union all
select
    'sottana',
    gpt4.source_file,
    cast(gpt4.source_line as integer),
    'sottana-' || gpt4.task || '-' || substr(gpt4.item_raw_id, 1, 16) || '-' || cast(outputs.system_position as varchar),
    'gpt-4',
    'judge',
    gpt4.criterion,
    coalesce(cast(value_map.score as varchar), gpt4.value),
    cast(null as varchar),
    'sottana_' || gpt4.task,
    1,
    cast(null as boolean),
    cast(null as timestamp)
from gpt4
left join outputs
    on outputs.task = gpt4.task
   and outputs.item_raw_id = gpt4.item_raw_id
   and outputs.system_id = gpt4.system_id
left join value_map
    on value_map.task = gpt4.task
   and value_map.criterion = gpt4.criterion
   and value_map.raw_value = gpt4.value
