-- Blind human quality reviews, one row per review file row: the score typed (score_int: a whole number, NULL when
-- it is not one; score_problem: missing | not_a_whole_number | out_of_range, NULL when the score is 1-5), the
-- reviewer's slot (1, 2: reviewers of a review code x dimension in reviewer_id order) and the experiment, group and
-- case behind the review code (the review key; NULL when the key lacks the code).
with reviews as (
    select
        reviews.*,
        try_cast(trim(reviews.score_text) as integer) as score_int,
        case
            when reviews.score_text is null or trim(reviews.score_text) = '' then 'missing'
            when try_cast(trim(reviews.score_text) as integer) is null then 'not_a_whole_number'
            when try_cast(trim(reviews.score_text) as integer) not between 1 and 5 then 'out_of_range'
        end as score_problem
    from {{ ref('stg_decisions__reviews') }} as reviews
),

ranked as (
    select
        reviews.*,
        dense_rank() over (partition by reviews.review_code, reviews.dimension order by reviews.reviewer_id) as reviewer_slot
    from reviews
),

keys as (
    select * from {{ ref('stg_decisions__review_keys') }}
)

select
    keys.experiment_id,
    keys.group_id,
    keys.case_id,
    ranked.*
from ranked
left join keys on keys.review_code = ranked.review_code
