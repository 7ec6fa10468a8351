-- Every group result file and attempt manifest reads; a failure lists the file, line and column.
select source_file, file_error from {{ ref('int_decisions__result_files') }} where file_error is not null
union all
select manifest_file, file_error from {{ ref('int_decisions__attempts') }} where file_error is not null
