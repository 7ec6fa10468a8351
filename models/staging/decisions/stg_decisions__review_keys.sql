-- The blind key of the quality review: which experiment, group and case hides behind each review code.
select
    filename             as source_file,
    trim(review_code)    as review_code,
    trim(experiment_id)  as experiment_id,
    trim(group_id)       as group_id,
    trim(case_id)        as case_id
from {{ read_source('decisions', 'review_keys') }}
