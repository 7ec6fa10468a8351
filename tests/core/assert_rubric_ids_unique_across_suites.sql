-- A rubric id names one rubric of one suite: the scoring models join rubric criteria, rules and versions on
-- rubric_id (with version and criterion), so two suites declaring the same rubric_id would mix their rubrics.
-- Returns each rubric id declared by more than one suite; must be empty.
select rubric_id, count(distinct suite) as n_suites
from {{ ref('int_rubric_versions') }}
group by rubric_id
having count(distinct suite) > 1
