-- A rater's own ready / pass and total as given in imported ratings files (ratings store columns
-- reported_decision, reported_total): one row per response x rater x rubric version, the latest import that gave
-- one (rated_at, then file and row). For audit only; scoring never reads them.
select
    suite,
    response_id,
    rater_id,
    rubric_id,
    rubric_version,
    reported_decision,
    reported_total,
    source_file,
    source_row
from evalhouse.stg_ratings_store__ratings
where (reported_decision is not null or reported_total is not null) and response_id is not null
qualify row_number() over (
    partition by suite, response_id, rater_id, rubric_id, rubric_version
    order by rated_at desc nulls last, source_file desc, source_row desc
) = 1