
  
    
        create table evalhouse.int_rubric_rules
      
      
      
      
      
      
      
      

      as
      -- Decision rules and composite weights of every rubric, declared in the suites' suite.yml: rule ready_gate
-- (ready: complete, every gate criterion at its best level, no criterion at its worst), content_verdict (a person's
-- content verdict: pass when every listed criterion is at its best level) and composite_weight (with weight).
select suite, rubric_id, rule, criterion, weight
from evalhouse.stg_suites__rubric_rules
  