-- Attempt manifests as data: per experiment x attempt x group, the manifest status and what it dispatched.
-- Statuses are taken as recorded (preflight_failed_no_case_calls, interrupted, setup_failed, execution_failed,
-- completed ...); a later attempt never rewrites an earlier one.
select
    experiment_id,
    attempt_id,
    attempt_status,
    group_id,
    manifest_file,
    file_error,
    count(case_id)                                                          as n_cases_dispatched,
    sum(case when dispatch_outcome = 'succeeded' then 1 else 0 end)         as n_succeeded,
    sum(case when dispatch_outcome = 'failed' then 1 else 0 end)            as n_failed,
    {{ decisions_string_agg('case_id', ',', 'case_id') }}                   as cases_dispatched
from {{ ref('stg_decisions__attempts') }}
group by experiment_id, attempt_id, attempt_status, group_id, manifest_file, file_error
