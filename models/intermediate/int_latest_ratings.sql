-- Each rater's latest valid-or-not rating per response x rubric version x criterion. The store is append-only, so a
-- rater who rates the same criterion again under the same version adds a row; the latest (rated_at, then file and
-- row) counts for scoring, and every row stays in fct_ratings.
select *
from (
    select
        ratings.*,
        row_number() over (
            partition by response_id, rater_id, rubric_id, rubric_version, criterion
            order by rated_at desc nulls last, source_file desc, source_row desc
        ) as recency_rank
    from {{ ref('int_ratings') }} as ratings
    where response_known and rubric_version is not null and criterion is not null
) as ranked
where recency_rank = 1
