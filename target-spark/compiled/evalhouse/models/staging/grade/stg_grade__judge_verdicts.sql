-- Recorded judge verdicts (judge_verdicts.csv) on single checks: is gold insight / required limitation /
-- forbidden claim <check_id> present in the response? Used only where the deterministic match finds nothing.
select
    'grade-' || pack_id || '-' || task_id || '-' || substr(md5(model), 1, 12) || '-r' || run   as response_id,
    pack_id,
    task_id,
    check_kind,
    check_id,
    lower(trim(verdict))                as verdict,
    judge_model,
    prompt_version,
    reason,
    filename                            as source_file
from (
    select cast(`pack_id` as string) as `pack_id`, cast(`task_id` as string) as `task_id`, cast(`model` as string) as `model`, cast(`run` as string) as `run`, cast(`check_kind` as string) as `check_kind`, cast(`check_id` as string) as `check_id`, cast(`verdict` as string) as `verdict`, cast(`judge_model` as string) as `judge_model`, cast(`prompt_version` as string) as `prompt_version`, cast(`reason` as string) as `reason`,
      'data/grade/packs/edu_example/judge_verdicts.csv' as filename
    from evalhouse.evalhouse_src_5bf693869100d3a1345df753ff006c34_1
    
)