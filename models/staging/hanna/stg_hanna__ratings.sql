-- HANNA ratings, one row per score:
--   * human: rater positions human_position_1..3 (positions, not people: 22 MTurk workers filled them), 1-5;
--   * judge: <LLM>/eval_prompt_<p> for 5 LLMs x 4 prompts, 1-5, fractional (mean of sampled answers; int_ratings
--     marks them not_a_whole_level, the reliability marts use the in-range value);
--   * human: user-study flags, positions mturk_position_1..3, 0/1, rubric hanna_explanation_flags.
with scores as (
    select *, row_number() over (order by story_id, source_column) as source_row
    from {{ read_parquet_source('hanna', 'scores') }}
),

codes as (
    select * from {{ ref('hanna_judge_columns') }}
),

parsed as (
    select
        scores.*,
        case when source_column like 'Human %' then 'human' else 'judge' end as rater_kind,
        case
            when source_column like 'Human %' then 'human_position_' || substr(source_column, 7, 1)
            else split_part(source_column, ' ', 1) || '/eval_prompt_' || split_part(source_column, ' ', 3)
        end                                                                  as rater_id,
        case when source_column like 'Human %' then split_part(source_column, ' ', 3)
             else split_part(source_column, ' ', 2) end                      as code
    from scores
),

story_ratings as (
    select
        'data/hanna/hanna_scores.parquet'                   as source_file,
        cast(source_row as integer)                         as source_row,
        'hanna-story-' || cast(story_id as varchar)         as response_id,
        rater_id,
        rater_kind,
        codes.criterion,
        cast(score as varchar)                              as score_text,
        'hanna_story'                                       as rubric_id
    from parsed
    left join codes on codes.code = parsed.code  -- an unknown code keeps its row: int_ratings flags unknown_criterion
),

user_study as (
    select * from {{ read_parquet_source('hanna', 'user_study') }}
),

flags as (
    select * from {{ ref('hanna_user_study_flags') }}
),

flag_ratings as (
    select
        'data/hanna/hanna_user_study.parquet'                as source_file,
        cast(source_row as integer)                          as source_row,
        'hanna-explanation-' || cast(unit_index as varchar)  as response_id,
        'mturk_position_' || cast(rater_position as varchar) as rater_id,
        'human'                                              as rater_kind,
        source_column,
        cast(value as varchar)                               as score_text
    from user_study
)

select
    'hanna' as suite, source_file, source_row, response_id, rater_id, rater_kind, criterion, score_text,
    cast(null as varchar) as reason, rubric_id, 1 as rubric_version, cast(null as boolean) as is_blind,
    cast(null as timestamp) as rated_at
from story_ratings
union all
select
    'hanna', source_file, source_row, response_id, rater_id, rater_kind, flags.criterion, score_text,
    cast(null as varchar), 'hanna_explanation_flags', 1, cast(null as boolean), cast(null as timestamp)
from flag_ratings
left join flags on flags.source_column = flag_ratings.source_column
