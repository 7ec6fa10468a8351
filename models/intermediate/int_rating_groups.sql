-- One row per (source_file, suite, response_id) of the rating rows (and of the HANNA metric scores, as source_file
-- 'stg_hanna__metric_scores'): a hash of its rows (content_hash) and a fingerprint of everything else the rating
-- chain reads (inputs_fingerprint: rubric criteria, rules and versions, responses, items, the chain's code). The
-- suite is part of the key so that the per-suite chain models know which suites a change touches.
-- int_rating_changes compares it with the state the incremental chain was last built with (macros/rating_chain.sql).
-- Incremental: the suites' groups are kept while the suites' rating rows are made from the same landed file (its
-- md5) and code (rows_fingerprint, suite_ratings_fingerprint) and the other inputs are the same; the ratings
-- store's and the metric scores' groups are hashed again in every run (the pre-hook deletes every other row). A
-- ratings import then hashes the store, not the suites' 8M rating rows at a million replies (1.4 s).
{{ config(materialized='incremental', incremental_strategy='append', on_schema_change='fail',
          pre_hook="{{ rating_groups_delete() }}") }}
with suite_ratings as (
    {{ suite_rating_rows() }}
),

store_ratings as (
    {{ store_rating_rows() }}
),

metric_scores as (
    select * from {{ ref('stg_hanna__metric_scores') }}
),

groups as (
    select suite_ratings.source_file, suite_ratings.suite, suite_ratings.response_id,
           {{ multiset_hash('suite_ratings') }} as content_hash,
           {{ suite_ratings_fingerprint() }} as rows_fingerprint
    from suite_ratings
{%- if is_incremental() %}
    -- after the pre-hook, the stored rows are the suites' groups it kept
    where not exists (select 1 from {{ this }})
{%- endif %}
    group by suite_ratings.source_file, suite_ratings.suite, suite_ratings.response_id

    union all

    select store_ratings.source_file, store_ratings.suite, store_ratings.response_id,
           {{ multiset_hash('store_ratings') }} as content_hash, cast(null as string) as rows_fingerprint
    from store_ratings
    group by store_ratings.source_file, store_ratings.suite, store_ratings.response_id

    union all

    select 'stg_hanna__metric_scores' as source_file, metric_scores.suite, metric_scores.response_id,
           {{ multiset_hash('metric_scores') }} as content_hash, cast(null as string) as rows_fingerprint
    from metric_scores
    group by metric_scores.suite, metric_scores.response_id
)

select groups.source_file, groups.suite, groups.response_id, groups.content_hash,
       {{ rating_chain_inputs_fingerprint() }} as inputs_fingerprint, groups.rows_fingerprint
from groups
