-- Every row of the case index pack/cases.csv (source decisions.cases), every column as text as written (never
-- sniffed; the optional locale columns read as NULL when the file lacks them), with the file (filename) and
-- source_row, the row's number in the file (decisions_file_row_number: 1 = the first row after the header).
-- Typed by stg_decisions__cases; base_decisions__case_files resolves the declared locales from these rows.
select
    {{ decisions_file_row_number() }} as source_row,
    cases.*
from {{ read_source('decisions', 'cases') }} as cases
