-- A rater has one rater_kind in a suite: the marts keep a rater's scores under its rater_id with that kind, so two
-- kinds would repeat the rater's rows (int_effective_scores, fct_model_run_scores) and split its figures.
-- `evalhouse suite land` and `evalhouse import-ratings` refuse such ratings naming file, row and column; this test
-- catches what reached the warehouse another way (a file copied into the ratings store by hand, a suite file and a
-- store file that disagree). Returns one row per such rater: its kinds and the first file giving each.
with kinds as (
    select suite, rater_id, rater_kind, min(source_file) as first_file
    from {{ ref('int_ratings') }}
    where rater_id is not null
    group by suite, rater_id, rater_kind
)

select
    suite,
    rater_id,
    count(*) as n_kinds,
    {{ string_agg_ordered("coalesce(rater_kind, 'NULL') || ' in ' || coalesce(first_file, '?')", "rater_kind", "; ") }} as kinds
from kinds
group by suite, rater_id
having count(*) > 1
