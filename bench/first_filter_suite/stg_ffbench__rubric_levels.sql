-- no rubric_levels in the benchmark suite: the shared table's columns, no rows
select * from {{ ref('stg_suites__rubric_levels') }} where false
