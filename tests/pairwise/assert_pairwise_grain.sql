-- Grain of the pairwise models: every row returned is a duplicate key.
select 'stg_comparisons_store__comparisons' as model, source_file || ':' || cast(source_row as varchar) as grain_key
from {{ ref('stg_comparisons_store__comparisons') }}
group by source_file, source_row having count(*) > 1
union all
select 'stg_suites__suite_systems', suite || ':' || name
from {{ ref('stg_suites__suite_systems') }} group by suite, name having count(*) > 1
union all
select 'int_suite_systems', suite || ':' || name
from {{ ref('int_suite_systems') }} group by suite, name having count(*) > 1
union all
select 'fct_pairwise_win_rates', suite || ':' || rater_group || ':' || system_id || ':' || opponent_id
from {{ ref('fct_pairwise_win_rates') }} group by suite, rater_group, system_id, opponent_id having count(*) > 1
union all
select 'fct_pairwise_ratings', suite || ':' || rater_group || ':' || system_id
from {{ ref('fct_pairwise_ratings') }} group by suite, rater_group, system_id having count(*) > 1
union all
select 'fct_pairwise_judge_diagnostics', suite || ':' || rater_group || ':' || diagnostic || ':' || subset
from {{ ref('fct_pairwise_judge_diagnostics') }} group by suite, rater_group, diagnostic, subset having count(*) > 1
