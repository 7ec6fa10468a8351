
  
    
        create table evalhouse.int_rubric_levels
      
      
      
      
      
      
      
      

      as
      -- The shared data model's rubric_levels for every suite, with each criterion's direction (higher or lower is
-- better).
select suite, rubric_id, rubric_version, criterion, criterion_order, min_score, max_score, level, anchor, direction, example, criterion_description
from evalhouse.stg_suites__rubric_levels
  