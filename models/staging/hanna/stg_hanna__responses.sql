-- HANNA responses: 1,056 stories (11 systems x 96 prompts; the story texts are not in the release, response_text
-- is NULL) and the 100 rated LLM explanations (system `llm_explainer`: the release does not say which LLM).
with stories as (
    select distinct system, prompt_index, story_id from {{ read_parquet_source('hanna', 'scores') }}
),

explanations as (
    select distinct unit_index, explanation
    from {{ read_parquet_source('hanna', 'user_study') }}
)

select
    'hanna'                                             as suite,
    'hanna-story-' || cast(story_id as varchar)         as response_id,
    'hanna-prompt-' || cast(prompt_index as varchar)    as item_id,
    cast(system as varchar)                             as system_id,
    1                                                   as repetition,
    cast(null as varchar)                               as response_text,
    cast(null as varchar)                               as raw_output,
    system = 'Human'                                    as is_reference_system
from stories
union all
select
    'hanna',
    'hanna-explanation-' || cast(unit_index as varchar),
    'hanna-explanation-' || cast(unit_index as varchar),
    'llm_explainer',
    1,
    cast(explanation as varchar),
    cast(explanation as varchar),
    false
from explanations
