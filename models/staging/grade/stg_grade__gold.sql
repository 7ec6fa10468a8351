-- GRADE gold facts (gold_facts.csv) in the shared data model, one row per task x fact: numeric_fact / string_fact
-- keyed by fact_id. gold_value stays text (int_grade__fact_checks parses it); an empty tolerance is 0.
-- unit, ground_truth_key and description are documentation of the pack and are not carried.
select
    'grade'                                                             as suite,
    pack_id || '/' || task_id                                           as item_id,
    case fact_kind when 'numeric' then 'numeric_fact' when 'string' then 'string_fact' else fact_kind end as gold_kind,
    fact_id                                                             as gold_key,
    gold_value,
    coalesce(try_cast(nullif(abs_tol, '') as decimal(38, 10)), 0)       as abs_tol,
    coalesce(try_cast(nullif(rel_tol, '') as decimal(38, 10)), 0)       as rel_tol
from {{ read_source('grade', 'gold_facts') }}
