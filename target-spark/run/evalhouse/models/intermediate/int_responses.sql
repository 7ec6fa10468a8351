
  
    
        create table evalhouse.int_responses
      
      
      
      
      
      
      
      

      as
      -- The shared data model's responses for every suite (union_suites).
select suite, response_id, item_id, system_id, repetition, response_text, raw_output, is_reference_system, input_tokens, output_tokens, total_tokens, latency_ms, ttft_ms, cost, cost_currency, run_label, source_tool, source_tool_version, eval_id, task_name, metadata
from evalhouse.stg_suites__responses
  