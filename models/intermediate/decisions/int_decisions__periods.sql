-- One row per case x period (base, current) with inclusive start and end dates, from the case index.
select case_id, 'base' as period, base_start as period_start, base_end as period_end
from {{ ref('stg_decisions__cases') }}
union all
select case_id, 'current' as period, current_start as period_start, current_end as period_end
from {{ ref('stg_decisions__cases') }}
