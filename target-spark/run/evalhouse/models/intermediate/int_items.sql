
  
    
        create table evalhouse.int_items
      
      
      
      
      
      
      
      

      as
      -- The shared data model's items for every suite (union_suites).
select suite, item_id, task, language, category, input_text, reference_text, metadata
from evalhouse.stg_suites__items
  