-- False passes and false fails of the plain word search and of the first filter, per model run, against people.
select
    suite,
    system_id,
    rater_id,
    rubric_id,
    rubric_version,
    cast(count(*) as integer)                                                              as n_compared,
    cast(sum(case when human_verdict = 'pass' then 1 else 0 end) as integer)               as n_human_pass,
    cast(sum(case when word_search_outcome = 'false_pass' then 1 else 0 end) as integer)   as word_search_false_passes,
    cast(sum(case when word_search_outcome = 'false_fail' then 1 else 0 end) as integer)   as word_search_false_fails,
    cast(sum(case when first_filter_outcome = 'false_pass' then 1 else 0 end) as integer)  as first_filter_false_passes,
    cast(sum(case when first_filter_outcome = 'false_fail' then 1 else 0 end) as integer)  as first_filter_false_fails
from {{ ref('fct_word_search_vs_human') }}
group by suite, system_id, rater_id, rubric_id, rubric_version
