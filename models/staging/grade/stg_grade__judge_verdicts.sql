-- Recorded judge verdicts (judge_verdicts.csv) on single checks: is gold insight / required limitation /
-- forbidden claim <check_id> present in the response? Used only where the deterministic match finds nothing.
select
    'grade-' || pack_id || '-' || task_id || '-' || {{ short_hash('model') }} || '-r' || run   as response_id,
    pack_id,
    task_id,
    check_kind,
    check_id,
    lower(trim(verdict))                as verdict,
    judge_model,
    prompt_version,
    reason,
    filename                            as source_file
from {{ read_source('grade', 'judge_verdicts') }}
