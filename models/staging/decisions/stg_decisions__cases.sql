-- The case index of the pack (pack/cases.csv): role (core C01-C10 or extra R01), currency, the two periods and the
-- optional declared locale (csv_delimiter, decimal_separator, thousands_separator; NULL when not declared; the
-- columns may be absent from the file), from base_decisions__cases (the file as text). base_decisions__case_files
-- resolves the locale per case CSV.
select
    trim(case_id)                          as case_id,
    trim(case_role)                        as case_role,
    trim(currency)                         as currency,
    try_cast(base_start as date)           as base_start,
    try_cast(base_end as date)             as base_end,
    try_cast(current_start as date)        as current_start,
    try_cast(current_end as date)          as current_end,
    trim(pos_file)                         as pos_file,
    nullif(trim(csv_delimiter), '')        as csv_delimiter,
    nullif(trim(decimal_separator), '')    as decimal_separator,
    nullif(trim(thousands_separator), '')  as thousands_separator
from {{ ref('base_decisions__cases') }}
