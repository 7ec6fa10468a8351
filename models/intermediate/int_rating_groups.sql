-- One row per (source_file, suite, response_id) of the rating rows (and of the HANNA metric scores, as source_file
-- 'stg_hanna__metric_scores'): a hash of its rows (content_hash) and a fingerprint of everything else the rating
-- chain reads (inputs_fingerprint: rubric criteria, rules and versions, responses, items, the chain's code). The
-- suite is part of the key so that the per-suite chain models know which suites a change touches.
-- Rebuilt every run; int_rating_changes compares it with the state the incremental chain was last built with
-- (macros/rating_chain.sql).
with ratings as (
    {{ rating_rows() }}
),

metric_scores as (
    select * from {{ ref('stg_hanna__metric_scores') }}
),

criteria as (
    select * from {{ ref('int_rubric_criteria') }}
),

rules as (
    select * from {{ ref('int_rubric_rules') }}
),

versions as (
    select * from {{ ref('int_rubric_versions') }}
),

responses as (
    select * from {{ ref('int_responses') }}
),

items as (
    select * from {{ ref('int_items') }}
),

fingerprint as (
    select
        '{{ rating_chain_code_hash() }}'
        || '|' || (select {{ multiset_hash('criteria') }} from criteria)
        || '|' || (select {{ multiset_hash('rules') }} from rules)
        || '|' || (select {{ multiset_hash('versions') }} from versions)
        || '|' || (select {{ multiset_hash('responses') }} from responses)
        || '|' || (select {{ multiset_hash('items') }} from items) as inputs_fingerprint
),

groups as (
    select ratings.source_file, ratings.suite, ratings.response_id, {{ multiset_hash('ratings') }} as content_hash
    from ratings
    group by ratings.source_file, ratings.suite, ratings.response_id

    union all

    select 'stg_hanna__metric_scores' as source_file, metric_scores.suite, metric_scores.response_id,
           {{ multiset_hash('metric_scores') }} as content_hash
    from metric_scores
    group by metric_scores.suite, metric_scores.response_id
)

select groups.source_file, groups.suite, groups.response_id, groups.content_hash, fingerprint.inputs_fingerprint
from groups
cross join fingerprint
