
  
    
        create table evalhouse.int_grade__responses
      
      
      
      
      
      
      
      

      as
      -- GRADE pack responses (the suite `grade`), one row per pack x task x model x run, in the names the GRADE marts use
-- (system_id = the model, repetition = the run, raw_text = the recorded raw output).
select
    response_id,
    item_id,
    system_id,
    repetition,
    raw_output      as raw_text
from evalhouse.int_responses
where suite = 'grade'
  