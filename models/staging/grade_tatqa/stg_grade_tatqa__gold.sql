-- One gold fact per question: arithmetic and count answers are numeric facts (tolerance: abs 0.005 = half a unit of the
-- gold's 2nd decimal, the precision TAT-QA gold is given in, plus rel 0.001 as in the PoT repository's
-- finqa_equal); single-span answers are string facts (case-folded exact match); multi-span answers are span-list
-- facts (gold_value ' | '-joined; scored by the TAT-QA official rules, which read the exact list from
-- stg_grade_tatqa__questions.gold_answer_json; the house rules do not apply to lists).
select
    'grade_tatqa'                                                       as suite,
    question_id                                                         as item_id,
    case when answer_type in ('arithmetic', 'count') then 'numeric_fact'
         when answer_type = 'multi-span' then 'span_list_fact'
         else 'string_fact' end                                         as gold_kind,
    'answer'                                                            as gold_key,
    gold_answer                                                         as gold_value,
    cast(case when answer_type in ('arithmetic', 'count') then 0.005 else 0 end as decimal(38, 10)) as abs_tol,
    cast(case when answer_type in ('arithmetic', 'count') then 0.001 else 0 end as decimal(38, 10)) as rel_tol
from {{ ref('stg_grade_tatqa__questions') }}
where answer_type in ('arithmetic', 'count', 'span', 'multi-span')
