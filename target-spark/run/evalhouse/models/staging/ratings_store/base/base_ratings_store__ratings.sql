create or replace view evalhouse.base_ratings_store__ratings
  
  
  as
    -- Every row of the append-only ratings store, every column as text, with its row number in its file
-- (source_row: store_row as written by the importer, 1 = first data row; files without it are numbered here).
select
    store.*,
    coalesce(
        try_cast(store.store_row as integer),
        row_number() over (partition by store.filename order by store.rated_at, store.response_id, store.packet_id, store.letter, store.criterion)
    ) as source_row
from (
    select cast(`suite` as string) as `suite`, cast(`response_id` as string) as `response_id`, cast(`packet_id` as string) as `packet_id`, cast(`letter` as string) as `letter`, cast(`rater_id` as string) as `rater_id`, cast(`rater_kind` as string) as `rater_kind`, cast(`criterion` as string) as `criterion`, cast(`score` as string) as `score`, cast(`reason` as string) as `reason`, cast(`rubric_id` as string) as `rubric_id`, cast(`rubric_version` as string) as `rubric_version`, cast(`is_blind` as string) as `is_blind`, cast(`rated_at` as string) as `rated_at`, cast(`store_row` as string) as `store_row`, cast(`judge_model` as string) as `judge_model`, cast(`prompt_hash` as string) as `prompt_hash`, cast(`temperature` as string) as `temperature`, cast(`seed` as string) as `seed`, cast(`input_tokens` as string) as `input_tokens`, cast(`output_tokens` as string) as `output_tokens`, cast(`latency_ms` as string) as `latency_ms`, cast(`cost` as string) as `cost`, cast(`cost_currency` as string) as `cost_currency`, cast(`raw_output` as string) as `raw_output`, cast(`failure_reason` as string) as `failure_reason`, cast(`reported_decision` as string) as `reported_decision`, cast(`reported_total` as string) as `reported_total`,
      'data/ratings/_schema/000_header.csv' as filename
    from evalhouse.evalhouse_src_584d329b08c1df790c8605bdc8f23682_1
    union all
    select cast(`suite` as string) as `suite`, cast(`response_id` as string) as `response_id`, cast(`packet_id` as string) as `packet_id`, cast(`letter` as string) as `letter`, cast(`rater_id` as string) as `rater_id`, cast(`rater_kind` as string) as `rater_kind`, cast(`criterion` as string) as `criterion`, cast(`score` as string) as `score`, cast(`reason` as string) as `reason`, cast(`rubric_id` as string) as `rubric_id`, cast(`rubric_version` as string) as `rubric_version`, cast(`is_blind` as string) as `is_blind`, cast(`rated_at` as string) as `rated_at`, cast(`store_row` as string) as `store_row`, cast(null as string) as `judge_model`, cast(null as string) as `prompt_hash`, cast(null as string) as `temperature`, cast(null as string) as `seed`, cast(null as string) as `input_tokens`, cast(null as string) as `output_tokens`, cast(null as string) as `latency_ms`, cast(null as string) as `cost`, cast(null as string) as `cost_currency`, cast(null as string) as `raw_output`, cast(null as string) as `failure_reason`, cast(null as string) as `reported_decision`, cast(null as string) as `reported_total`,
      'data/ratings/larkfield/20260105T000000Z_course_team_lesson_figure.csv' as filename
    from evalhouse.evalhouse_src_584d329b08c1df790c8605bdc8f23682_2
    union all
    select cast(`suite` as string) as `suite`, cast(`response_id` as string) as `response_id`, cast(`packet_id` as string) as `packet_id`, cast(`letter` as string) as `letter`, cast(`rater_id` as string) as `rater_id`, cast(`rater_kind` as string) as `rater_kind`, cast(`criterion` as string) as `criterion`, cast(`score` as string) as `score`, cast(`reason` as string) as `reason`, cast(`rubric_id` as string) as `rubric_id`, cast(`rubric_version` as string) as `rubric_version`, cast(`is_blind` as string) as `is_blind`, cast(`rated_at` as string) as `rated_at`, cast(`store_row` as string) as `store_row`, cast(null as string) as `judge_model`, cast(null as string) as `prompt_hash`, cast(null as string) as `temperature`, cast(null as string) as `seed`, cast(null as string) as `input_tokens`, cast(null as string) as `output_tokens`, cast(null as string) as `latency_ms`, cast(null as string) as `cost`, cast(null as string) as `cost_currency`, cast(null as string) as `raw_output`, cast(null as string) as `failure_reason`, cast(null as string) as `reported_decision`, cast(null as string) as `reported_total`,
      'data/ratings/larkfield/20260202T000000Z_course_team_v2_code_fence_rescore.csv' as filename
    from evalhouse.evalhouse_src_584d329b08c1df790c8605bdc8f23682_3
    
) as store
