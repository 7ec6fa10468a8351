-- GRADE gold facts in the shared data model: numeric_fact / string_fact keyed by fact_id, with tolerances.
select
    'grade'                                                         as suite,
    item_id,
    case fact_kind when 'numeric' then 'numeric_fact' when 'string' then 'string_fact' else fact_kind end as gold_kind,
    fact_id                                                         as gold_key,
    gold_value,
    abs_tol,
    rel_tol
from {{ ref('stg_grade__gold_facts') }}
