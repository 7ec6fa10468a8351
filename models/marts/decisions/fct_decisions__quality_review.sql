-- Human quality review, side by side: per reviewed card x dimension, each of the two blind reviewers' 1-5 score in
-- its own column, the absolute difference and a disagreement flag. Scores are never averaged. A score that is not a
-- whole number from 1 to 5 keeps its text and gets score_problem (its typed score is NULL).
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
        dense_rank() over (
            partition by reviews.review_code, reviews.dimension order by reviews.reviewer_id
        ) as reviewer_slot
    from reviews
),

keys as (
    select * from {{ ref('stg_decisions__review_keys') }}
)

select
    keys.experiment_id,
    keys.group_id,
    keys.case_id,
    r.review_code,
    r.dimension,
    max(case when r.reviewer_slot = 1 then r.reviewer_id end)                               as reviewer_1_id,
    max(case when r.reviewer_slot = 1 and r.score_problem is null then r.score_int end)     as reviewer_1_score,
    max(case when r.reviewer_slot = 1 then r.score_text end)                                as reviewer_1_score_text,
    max(case when r.reviewer_slot = 1 then r.score_problem end)                             as reviewer_1_score_problem,
    max(case when r.reviewer_slot = 1 then r.note end)                                      as reviewer_1_note,
    max(case when r.reviewer_slot = 2 then r.reviewer_id end)                               as reviewer_2_id,
    max(case when r.reviewer_slot = 2 and r.score_problem is null then r.score_int end)     as reviewer_2_score,
    max(case when r.reviewer_slot = 2 then r.score_text end)                                as reviewer_2_score_text,
    max(case when r.reviewer_slot = 2 then r.score_problem end)                             as reviewer_2_score_problem,
    max(case when r.reviewer_slot = 2 then r.note end)                                      as reviewer_2_note,
    count(distinct r.reviewer_id)                                                           as n_reviewers,
    abs(max(case when r.reviewer_slot = 1 and r.score_problem is null then r.score_int end)
        - max(case when r.reviewer_slot = 2 and r.score_problem is null then r.score_int end)) as abs_score_difference,
    max(case when r.reviewer_slot = 1 and r.score_problem is null then r.score_int end)
        <> max(case when r.reviewer_slot = 2 and r.score_problem is null then r.score_int end) as reviewers_disagree
from ranked as r
left join keys on keys.review_code = r.review_code
group by keys.experiment_id, keys.group_id, keys.case_id, r.review_code, r.dimension
