-- no rubric_versions in the benchmark suite: the shared table's columns, no rows
select * from {{ ref('stg_suites__rubric_versions') }} where false
