
  
    
        create table evalhouse.int_grade__tasks
      
      
      
      
      
      
      
      

      as
      -- GRADE tasks with their validated rubric weights (one column per dimension) and the pack's metadata.
-- Reads stg_grade__task_weights, whose test grade_weights_sum_to_one rejects a task whose weights do not sum to 1
-- (within 1e-6): when it fails, this model and every scoring model downstream are skipped by `dbt build`.
with tasks as (
    select * from evalhouse.stg_grade__tasks
),

weights as (
    select pack_id, task_id,
        max(case when dimension = 'grounding_accuracy' then weight end) as w_grounding_accuracy,
        max(case when dimension = 'insight_quality' then weight end) as w_insight_quality,
        max(case when dimension = 'evidence_linkage' then weight end) as w_evidence_linkage,
        max(case when dimension = 'calibration_limitation_handling' then weight end) as w_calibration_limitation_handling,
        max(case when dimension = 'consistency' then weight end) as w_consistency,
        max(case when dimension = 'structure_usability' then weight end) as w_structure_usability
    from evalhouse.stg_grade__task_weights
    group by pack_id, task_id
),

packs as (
    select * from evalhouse.stg_grade__packs
)

select
    tasks.pack_id,
    tasks.task_id,
    tasks.item_id,
    tasks.track,
    tasks.title,
    tasks.prompt,
    packs.title             as pack_title,
    packs.is_synthetic,
    packs.entity_id_regex,
    weights.w_grounding_accuracy,
    weights.w_insight_quality,
    weights.w_evidence_linkage,
    weights.w_calibration_limitation_handling,
    weights.w_consistency,
    weights.w_structure_usability
from tasks
inner join weights
    on weights.pack_id = tasks.pack_id
   and weights.task_id = tasks.task_id
left join packs
    on packs.pack_id = tasks.pack_id
  