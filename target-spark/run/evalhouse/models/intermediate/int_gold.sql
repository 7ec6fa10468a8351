
  
    
        create table evalhouse.int_gold
      
      
      
      
      
      
      
      

      as
      -- The shared data model's gold for every suite (union_suites).
select suite, item_id, gold_kind, gold_key, gold_value, abs_tol, rel_tol, metadata
from evalhouse.stg_suites__gold
  