-- The word search beside a person: one row per response x human rater x rubric version where both a search
-- verdict and a person's content verdict exist. The person's content verdict (int_reply_scores.content_verdict) is
-- pass when every criterion of the rubric's content_verdict rule (int_rubric_rules) is at its maximum, fail when any
-- scored one is below it (seed 000: "a person reads it: correct and complete"), NULL when none of them is scored.
-- Incremental on DuckDB, a model of the rating chain (macros/rating_chain.sql) keyed by response: a run recomputes
-- the responses whose ratings changed (int_rating_changes) and those it does not hold as int_first_filter has them
-- now: its pre-hook also deletes every response whose stored first-filter columns differ from int_first_filter's
-- (word_search_delete), and the model adds every response it then lacks (new, changed, or without rows before).
{{ config(materialized=rating_chain_materialized(), incremental_strategy='append',
          on_schema_change='fail',
          pre_hook=["{{ rating_chain_delete('response_id') }}", "{{ word_search_delete() }}"]) }}
{%- set affected = affected_responses('ff.response_id') %}  {#- outside the if: dbt sees its ref at parse time #}
with first_filter as (
    select ff.* from {{ ref('int_first_filter') }} as ff
    where ff.word_search_verdict is not null
{%- if is_incremental() %}
        -- only the responses to recompute, before the join (at 1M replies half the time of filtering after it)
        and ({{ affected }}
             or not exists (select 1 from {{ this }} as kept where kept.response_id = ff.response_id))
{%- endif %}
),

human as (
    select suite, response_id, rater_id, rubric_id, rubric_version, content_verdict as human_verdict
    from {{ ref('int_reply_scores') }}
    where rater_kind = 'human' and content_verdict is not null
{%- if is_incremental() %}
        and response_id in (select first_filter.response_id from first_filter)
{%- endif %}
)

select
    first_filter.suite,
    first_filter.response_id,
    first_filter.item_id,
    first_filter.system_id,
    human.rater_id,
    human.rubric_id,
    human.rubric_version,
    human.human_verdict,
    first_filter.word_search_verdict,
    first_filter.first_filter_verdict,
    case
        when first_filter.word_search_verdict = human.human_verdict then 'agree'
        when first_filter.word_search_verdict = 'pass' then 'false_pass'
        else 'false_fail'
    end as word_search_outcome,
    case
        when first_filter.first_filter_verdict = human.human_verdict then 'agree'
        when first_filter.first_filter_verdict = 'pass' then 'false_pass'
        else 'false_fail'
    end as first_filter_outcome,
    first_filter.n_required_missing_plain,
    first_filter.n_required_missing_normalized,
    first_filter.n_forbidden_found_plain,
    first_filter.n_forbidden_violations,
    first_filter.n_labels_wrong,
    first_filter.language_matches_key
from first_filter
inner join human
    on human.suite = first_filter.suite and human.response_id = first_filter.response_id
