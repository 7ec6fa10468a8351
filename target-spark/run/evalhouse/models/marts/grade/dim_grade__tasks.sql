
  
    
        create table evalhouse.dim_grade__tasks
      
      
      
      
      
      
      
      

      as
      
-- GRADE tasks with their validated per-task rubric weights and their gold-check counts.
with facts as (
    select item_id, count(*) as n_gold_facts from evalhouse.int_gold where suite = 'grade' group by item_id
),

checks as (
    select
        item_id,
        sum(case when check_kind = 'gold_insight' then 1 else 0 end)          as n_gold_insights,
        sum(case when check_kind = 'required_limitation' then 1 else 0 end)   as n_required_limitations,
        sum(case when check_kind = 'forbidden_claim' then 1 else 0 end)       as n_forbidden_claims
    from evalhouse.int_grade__checks
    group by item_id
)

select
    t.pack_id,
    t.task_id,
    t.track,
    t.title,
    t.prompt,
    t.pack_title,
    t.is_synthetic,
    t.w_grounding_accuracy,
    t.w_insight_quality,
    t.w_evidence_linkage,
    t.w_calibration_limitation_handling,
    t.w_consistency,
    t.w_structure_usability,
    coalesce(facts.n_gold_facts, 0)                 as n_gold_facts,
    coalesce(checks.n_gold_insights, 0)             as n_gold_insights,
    coalesce(checks.n_required_limitations, 0)      as n_required_limitations,
    coalesce(checks.n_forbidden_claims, 0)          as n_forbidden_claims
from evalhouse.int_grade__tasks as t
left join facts on facts.item_id = t.item_id
left join checks on checks.item_id = t.item_id
  