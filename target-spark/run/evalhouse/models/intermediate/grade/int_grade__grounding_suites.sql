
  
    
        create table evalhouse.int_grade__grounding_suites
      
      
      
      
      
      
      
      

      as
      -- The suites whose numeric / string facts are checked by fct_grade__fact_checks: those with grounding: true in
-- suite.yml.
select suite
from evalhouse.stg_suites__suites
where grounding
  