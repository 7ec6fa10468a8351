-- One row per case CSV file (pack/cases/<case>/pos.csv, budget.csv, inventory.csv) with the delimiter and number
-- locale it is read with, or file_problem when it cannot be read (base_decisions__case_files).
select
    case_id,
    file_kind,
    source_file,
    csv_delimiter,
    decimal_separator,
    thousands_separator,
    locale_source,
    file_problem
from {{ ref('base_decisions__case_files') }}
