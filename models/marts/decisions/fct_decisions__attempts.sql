-- Attempt manifests as data: per experiment x attempt x group, the manifest status and what it dispatched.
-- Statuses are taken as recorded (preflight_failed_no_case_calls, interrupted, setup_failed, execution_failed,
-- completed ...); a later attempt never rewrites an earlier one. A resume may only dispatch failed or missing pairs:
-- n_redispatched_after_success counts pairs this attempt dispatched although an earlier attempt had already
-- succeeded on them (a rule violation worth reviewing; it is how a duplicated card usually arises).
with attempts as (
    select * from {{ ref('int_decisions__attempts') }}
),

redispatched as (
    select distinct later.experiment_id, later.attempt_id, later.group_id, later.case_id
    from attempts as later
    inner join attempts as earlier
        on earlier.experiment_id = later.experiment_id and earlier.group_id = later.group_id
       and earlier.case_id = later.case_id and earlier.attempt_id < later.attempt_id
       and earlier.dispatch_outcome = 'succeeded'
)

select
    attempts.experiment_id,
    attempts.attempt_id,
    attempts.attempt_status,
    attempts.group_id,
    attempts.manifest_file,
    attempts.file_error,
    count(attempts.case_id)                                                      as n_cases_dispatched,
    sum(case when attempts.dispatch_outcome = 'succeeded' then 1 else 0 end)    as n_succeeded,
    sum(case when attempts.dispatch_outcome = 'failed' then 1 else 0 end)       as n_failed,
    count(redispatched.case_id)                                                  as n_redispatched_after_success,
    {{ string_agg_ordered('attempts.case_id', 'attempts.case_id', ',') }}     as cases_dispatched
from attempts
left join redispatched
    on redispatched.experiment_id = attempts.experiment_id and redispatched.attempt_id = attempts.attempt_id
   and redispatched.group_id = attempts.group_id and redispatched.case_id = attempts.case_id
group by attempts.experiment_id, attempts.attempt_id, attempts.attempt_status, attempts.group_id,
         attempts.manifest_file, attempts.file_error
