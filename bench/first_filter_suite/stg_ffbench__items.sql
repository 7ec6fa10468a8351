select 'ffbench' as suite, 'x' as item_id, cast(null as varchar) as task, 'x' as language, 'x' as category,
       'x' as input_text, 'x' as reference_text where false
