
  
    
        create table evalhouse.int_suite_systems
      
      
      
      
      
      
      
      

      as
      -- Systems and judges named in each suite.yml (families:, baseline:), for the pairwise marts.
select suite, name, family, is_baseline
from evalhouse.stg_suites__suite_systems
  