
  
    
        create table evalhouse.int_grade__response_texts
      
      
      
      
      
      
      
      

      as
      -- The texts of each GRADE pack response the claim and evidence checks search, one row per response x text:
-- each key finding and each limitation with its 1-based rank in the response, and the raw text (position 0).
with items as (
    select response_id, item_kind as text_kind, position, item_text as text_value
    from evalhouse.stg_grade__response_items
),

raw_texts as (
    select response_id, 'raw_text' as text_kind, 0 as position, raw_text as text_value
    from evalhouse.int_grade__responses
)

select response_id, text_kind, cast(position as integer) as position, text_value from items
union all
select response_id, text_kind, cast(position as integer) as position, text_value from raw_texts
  