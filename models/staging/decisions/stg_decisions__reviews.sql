-- Blind human quality reviews (data/decisions/reviews/*.csv): one 1-5 score per review code x reviewer x dimension.
-- Scores stay text here; fct_decisions__quality_review types and range-checks them.
select
    filename            as source_file,
    trim(review_code)   as review_code,
    trim(reviewer_id)   as reviewer_id,
    trim(dimension)     as dimension,
    score               as score_text,
    nullif(note, '')    as note
from {{ read_source('decisions', 'reviews') }}
