-- Every item (test case / ticket) of every suite, with its input and answer-key summary.
select suite, item_id, task, language, category, input_text, reference_text
from evalhouse.int_items