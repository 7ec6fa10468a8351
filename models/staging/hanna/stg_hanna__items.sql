-- HANNA items: the 96 WritingPrompts prompts (task story_generation; every system wrote one story per prompt) and
-- the 100 LLM explanations of the user study (task explanation_rating; one item = one explanation triple).
with prompts as (
    select distinct prompt_index from {{ read_parquet_source('hanna', 'scores') }}
),

explanations as (
    select distinct unit_index, story_id from {{ read_parquet_source('hanna', 'user_study') }}
)

select
    'hanna'                                             as suite,
    'hanna-prompt-' || cast(prompt_index as varchar)    as item_id,
    'story_generation'                                  as task,
    'en'                                                as language,
    cast(null as varchar)                               as category,
    cast(null as varchar)                               as input_text,
    cast(null as varchar)                               as reference_text
from prompts
union all
select
    'hanna',
    'hanna-explanation-' || cast(unit_index as varchar),
    'explanation_rating',
    'en',
    cast(null as varchar),
    'LLM explanation of its rating of HANNA story ' || cast(story_id as varchar),
    cast(null as varchar)
from explanations
