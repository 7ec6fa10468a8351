
  
    
        create table evalhouse.int_rubric_versions
      
      
      
      
      
      
      
      

      as
      -- The shared data model's rubric_versions for every suite (union_suites).
select suite, rubric_id, rubric_version, effective_from, changed_criteria, change_note
from evalhouse.stg_suites__rubric_versions
  