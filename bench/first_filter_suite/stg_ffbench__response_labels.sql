select 'ffbench' as suite, 'x' as response_id, 'x' as label_name, 'x' as label_value where false
