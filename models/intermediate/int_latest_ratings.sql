-- Each rater's latest valid-or-not rating per response x rubric version x criterion. The store is append-only, so a
-- rater who rates the same criterion again under the same version adds a row; the latest (rated_at, then file and
-- row) counts for scoring, and every row stays in fct_ratings.
-- A key rated once passes as it is (recency_rank 1); only the keys rated more than once go through the window
-- (a window over every row: 20 s -> 16 s for 8.2M rows at 1M replies, same rows). NULL rater or rubric ids are
-- matched as equal, as the window's partition does.
-- Incremental on DuckDB: recomputes the responses in int_rating_changes (macros/rating_chain.sql).
{{ config(materialized=rating_chain_materialized(), unique_key='response_id', incremental_strategy='delete+insert',
          on_schema_change='fail', pre_hook="{{ rating_chain_delete('response_id') }}") }}
with ratings as (
    select * from {{ ref('int_ratings') }}
    where response_known and rubric_version is not null and criterion is not null
      and {{ affected_responses('response_id') }}
),

repeated as (
    select response_id, rater_id, rubric_id, rubric_version, criterion
    from ratings
    group by response_id, rater_id, rubric_id, rubric_version, criterion
    having count(*) > 1
),

rated_once as (
    select ratings.*
    from ratings
    where not exists (
        select 1 from repeated
        where repeated.response_id = ratings.response_id
          and repeated.rater_id is not distinct from ratings.rater_id
          and repeated.rubric_id is not distinct from ratings.rubric_id
          and repeated.rubric_version = ratings.rubric_version
          and repeated.criterion = ratings.criterion
    )
),

ranked as (
    select
        ratings.*,
        row_number() over (
            partition by ratings.response_id, ratings.rater_id, ratings.rubric_id, ratings.rubric_version,
                         ratings.criterion
            order by ratings.rated_at desc nulls last, ratings.source_file desc, ratings.source_row desc
        ) as recency_rank
    from ratings
    where exists (
        select 1 from repeated
        where repeated.response_id = ratings.response_id
          and repeated.rater_id is not distinct from ratings.rater_id
          and repeated.rubric_id is not distinct from ratings.rubric_id
          and repeated.rubric_version = ratings.rubric_version
          and repeated.criterion = ratings.criterion
    )
)

select rated_once.*, cast(1 as bigint) as recency_rank from rated_once
union all
select * from ranked where recency_rank = 1
