-- no ratings in the benchmark suite: the shared table's columns, no rows
select * from {{ ref('stg_suites__ratings') }} where false
