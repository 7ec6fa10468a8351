-- The lesson's explorer: three tickets, four replies each under the letters A-D, every one with a rubric total.
select ticket_id, count(*) as n, count(total) as n_scored, {{ string_agg_ordered('panel_letter', 'panel_letter', '') }} as letters
from {{ ref('fct_larkfield_ranking_practice') }}
group by ticket_id
having count(*) <> 4 or count(total) <> 4 or {{ string_agg_ordered('panel_letter', 'panel_letter', '') }} <> 'ABCD'
union all
select 'tickets' as ticket_id, count(distinct ticket_id), 0, '' from {{ ref('fct_larkfield_ranking_practice') }}
having count(distinct ticket_id) <> 3
