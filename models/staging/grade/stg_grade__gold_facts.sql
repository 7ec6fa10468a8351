-- Gold facts per task (gold_facts.csv): numeric (absolute and/or relative tolerance) or string (case-folded
-- exact match). Empty tolerance = 0. Values stay text here; int_grade__fact_checks parses them.
select
    pack_id,
    task_id,
    pack_id || '/' || task_id                                   as item_id,
    fact_id,
    fact_kind,
    gold_value,
    nullif(unit, '')                                            as unit,
    coalesce(try_cast(nullif(abs_tol, '') as decimal(38, 10)), 0)   as abs_tol,
    coalesce(try_cast(nullif(rel_tol, '') as decimal(38, 10)), 0)   as rel_tol,
    abs_tol                                                     as abs_tol_text,
    rel_tol                                                     as rel_tol_text,
    ground_truth_key,
    description,
    filename                                                    as source_file
from {{ read_store_csv(var('grade_packs_dir') ~ '/*/gold_facts.csv') }}
