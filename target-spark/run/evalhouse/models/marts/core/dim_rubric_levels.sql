
  
    
        create table evalhouse.dim_rubric_levels
      
      
      
      
      
      
      
      

      as
      -- Rubric criteria and levels with anchors per version, with what each version changed.
select
    levels.suite,
    levels.rubric_id,
    levels.rubric_version,
    versions.effective_from,
    versions.change_note,
    levels.criterion,
    levels.criterion_order,
    levels.min_score,
    levels.max_score,
    levels.level,
    levels.anchor,
    criteria.anchors_changed_in_version,
    criteria.is_current_version
from evalhouse.int_rubric_levels as levels
inner join evalhouse.int_rubric_criteria as criteria
    on criteria.rubric_id = levels.rubric_id
   and criteria.rubric_version = levels.rubric_version
   and criteria.criterion = levels.criterion
left join evalhouse.int_rubric_versions as versions
    on versions.rubric_id = levels.rubric_id and versions.rubric_version = levels.rubric_version
  