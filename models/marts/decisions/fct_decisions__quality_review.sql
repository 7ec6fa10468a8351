-- Human quality review, side by side: per reviewed card x dimension, each of the two blind reviewers' 1-5 score in
-- its own column, the absolute difference and a disagreement flag. Scores are never averaged. A score that is not a
-- whole number from 1 to 5 keeps its text and gets score_problem (its typed score is NULL; int_decisions__reviews).
select
    r.experiment_id,
    r.group_id,
    r.case_id,
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
from {{ ref('int_decisions__reviews') }} as r
group by r.experiment_id, r.group_id, r.case_id, r.review_code, r.dimension
