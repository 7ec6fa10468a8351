-- Each rater's latest valid-or-not rating per response x rubric version x criterion. The store is append-only, so a
-- rater who rates the same criterion again under the same version adds a row; the latest (rated_at, then file and
-- row) counts for scoring, and every row stays in fct_ratings.
select *
from (
    select
        ratings.*,
        row_number() over (
            partition by ratings.response_id, ratings.rater_id, ratings.rubric_id, ratings.rubric_version,
                         ratings.criterion
            order by ratings.rated_at desc nulls last, ratings.source_file desc, ratings.source_row desc
        ) as recency_rank
    from evalhouse.int_ratings as ratings
    where ratings.response_known and ratings.rubric_version is not null and ratings.criterion is not null
) as ranked
where recency_rank = 1