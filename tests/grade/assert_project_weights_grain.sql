-- int_grade__project_weights is one row (the project's weights, one column per dimension), and the seed it pivots
-- gives each dimension once (a second row would be lost to max()). Returns the problems; must be empty.
select 'int_grade__project_weights has ' || cast(count(*) as varchar) || ' rows, not 1' as problem
from {{ ref('int_grade__project_weights') }}
having count(*) <> 1
union all
select 'grade_dimension_weights gives dimension ' || dimension || ' ' || cast(count(*) as varchar) || ' times'
from {{ ref('grade_dimension_weights') }}
group by dimension
having count(*) > 1
