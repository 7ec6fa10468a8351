-- The blind key of the quality review: which experiment, group and case hides behind each review code.
select
    filename             as source_file,
    trim(review_code)    as review_code,
    trim(experiment_id)  as experiment_id,
    trim(group_id)       as group_id,
    trim(case_id)        as case_id
from {{ decisions_read_csv_text(decisions_path('review_keys_glob'), ['review_code', 'experiment_id', 'group_id', 'case_id']) }}
