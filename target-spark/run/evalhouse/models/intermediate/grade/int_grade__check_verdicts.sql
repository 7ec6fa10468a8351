
  
    
        create table evalhouse.int_grade__check_verdicts
      
      
      
      
      
      
      
      

      as
      -- Recorded judge verdicts on GRADE claim checks, one row per response x check: present when any judge said present.
-- Verdicts other than present / absent are ignored; the judge named is the first '<judge_model>@<prompt_version>'.
select
    response_id,
    check_kind,
    check_id,
    max(case when verdict = 'present' then 1 else 0 end)   as judge_present,
    count(*)                                               as n_verdicts,
    min(judge_model || '@' || prompt_version)              as judge
from evalhouse.stg_grade__judge_verdicts
where verdict in ('present', 'absent')
group by response_id, check_kind, check_id
  