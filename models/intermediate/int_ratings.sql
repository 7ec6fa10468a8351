-- Every rating of every suite and of the ratings store, typed and checked against the rubric.
-- Nothing is dropped: a score that is not a number, not whole, or out of the criterion's range keeps its row with
-- score NULL and score_problem set; a rating of an unknown response keeps its row with response_known false (and
-- item_id, system_id NULL). fct_ratings is a view of this table.
-- Incremental on DuckDB: recomputes only the rows of the (source_file, response_id) pairs in int_rating_changes
-- (macros/rating_chain.sql); --full-refresh recomputes all.
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('rating') }}") }}
with rating_rows as (
    {{ rating_rows() }}
),

all_ratings as (
    select * from rating_rows where {{ affected_rating_rows('rating_rows') }}
),

criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

responses as (
    select response_id, item_id, system_id from {{ ref('int_responses') }}
),

typed as (
    select
        all_ratings.*,
        try_cast(all_ratings.score_text as decimal(18, 4)) as score_number,
        criteria.min_score,
        criteria.max_score,
        criteria.criterion is not null as criterion_known,
        responses.response_id is not null as response_known,
        responses.item_id,
        responses.system_id
    from all_ratings
    left join responses
        on responses.response_id = all_ratings.response_id
    left join criteria
        on criteria.rubric_id = all_ratings.rubric_id
       and criteria.rubric_version = all_ratings.rubric_version
       and criteria.criterion = all_ratings.criterion
),

checked as (
    select
        typed.*,
        case
            when typed.score_text is null or trim(typed.score_text) = '' then 'missing'
            when not typed.criterion_known then 'unknown_criterion'
            when typed.score_number is null then 'not_a_number'
            when typed.score_number <> floor(typed.score_number) then 'not_a_whole_level'
            when typed.score_number < typed.min_score or typed.score_number > typed.max_score then 'out_of_range'
        end as score_problem
    from typed
)

select
    {{ row_hash("coalesce(source_file, '') || '|' || coalesce(cast(source_row as string), '') || '|' || coalesce(response_id, '') || '|' || coalesce(rater_id, '') || '|' || coalesce(criterion, '') || '|' || coalesce(cast(rubric_version as string), '')") }} as rating_id,
    suite,
    response_id,
    item_id,
    system_id,
    response_known,
    rater_id,
    rater_kind,
    criterion,
    case when score_problem is null then cast(score_number as integer) end as score,
    score_text,
    score_problem,
    reason,
    rubric_id,
    rubric_version,
    is_blind,
    rated_at,
    reported_total,
    reported_ready,
    judge_model,
    source_file,
    source_row
from checked
