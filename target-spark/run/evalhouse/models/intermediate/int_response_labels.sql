
  
    
        create table evalhouse.int_response_labels
      
      
      
      
      
      
      
      

      as
      -- The shared data model's response_labels for every suite (union_suites).
select suite, response_id, label_name, label_value
from evalhouse.stg_suites__response_labels
  