{{ config(materialized='table') }}
-- depends_on: {{ ref('int_grade__tasks') }}
-- GRADE grounding accuracy (C1) as a SQL tolerance join: every gold numeric_fact / string_fact of the grounding
-- suites (int_grade__grounding_suites) against every response to its item, through the value the response reported under
-- the fact's key (response_labels: structured_metrics for packs, the parsed answer for TAT-QA / GSM8K).
-- Numeric: the LAST number token of the reported text (macro grade_number_tokens; rules in
-- evalhouse.grade.text), compared in DECIMAL(38,18): passed iff |reply - gold| <= abs_tol + rel_tol * |gold|
-- (gold is the reference, boundary inclusive, abs_tol 0 unless set). passed_exact: reply = gold as decimals.
-- String: passed iff casefold(trim(reply)) = casefold(trim(gold)) (full Unicode case folding, nothing else is
-- normalised: no article stripping, no numeric reading of IDs); passed_exact: trim(reply) = trim(gold).
with grounding_suites as (
    select suite from {{ ref('int_grade__grounding_suites') }}
),

gold as (
    select
        suite,
        item_id,
        gold_kind,
        gold_key,
        gold_value,
        cast(coalesce(abs_tol, 0) as decimal(38, 18))    as abs_tol,
        cast(coalesce(rel_tol, 0) as decimal(18, 9))     as rel_tol,
        {{ grade_number_tokens('gold_value') }}          as gold_tokens
    from {{ ref('int_gold') }}
    where gold_kind in ('numeric_fact', 'string_fact')
      and suite in (select grounding_suites.suite from grounding_suites)
),

gold_typed as (
    select
        gold.*,
        case when gold.gold_kind = 'numeric_fact' and {{ list_size('gold_tokens') }} = 1
             then {{ grade_parse_number(list_element('gold_tokens', 1)) }} end    as gold_number,
        case when gold.gold_kind = 'string_fact' then {{ grade_casefold('trim(gold_value)') }} end as gold_folded
    from gold
),

gold_tol as (
    -- the tolerance once per gold fact (DECIMAL rescaling is costly; not once per response)
    select
        gold_typed.*,
        {{ grade_tolerance('gold_typed.abs_tol', 'gold_typed.rel_tol', 'gold_typed.gold_number') }} as tolerance
    from gold_typed
),

responses as (
    select suite, response_id, item_id, system_id, repetition
    from {{ ref('int_responses') }}
    where suite in (select grounding_suites.suite from grounding_suites)
),

labels as (
    select suite, response_id, label_name, label_value
    from {{ ref('int_response_labels') }}
    where suite in (select grounding_suites.suite from grounding_suites)
),

joined as (
    select
        responses.suite,
        responses.response_id,
        responses.item_id,
        responses.system_id,
        responses.repetition,
        gold_typed.gold_kind,
        gold_typed.gold_key,
        gold_typed.gold_value,
        gold_typed.gold_number,
        gold_typed.gold_folded,
        gold_typed.abs_tol,
        gold_typed.rel_tol,
        gold_typed.tolerance,
        labels.label_value                                      as reply_text,
        case when gold_typed.gold_kind = 'numeric_fact'
             then {{ grade_number_tokens('labels.label_value') }} end as reply_tokens
    from responses
    inner join gold_tol as gold_typed
        on gold_typed.suite = responses.suite
       and gold_typed.item_id = responses.item_id
    left join labels
        on labels.response_id = responses.response_id
       and labels.label_name = gold_typed.gold_key
),

parsed as (
    select
        joined.*,
        {{ list_size('reply_tokens') }}                                      as n_reply_numbers,
        {{ list_element('reply_tokens', -1) }}                               as reply_token,
        {{ grade_parse_number(list_element('reply_tokens', -1)) }}           as reply_number,
        case when joined.gold_kind = 'string_fact' and joined.reply_text is not null
             then {{ grade_casefold('trim(reply_text)') }} end                     as reply_folded
    from joined
),

compared as (
    select
        parsed.*,
        abs({{ decimal_38_18_add('parsed.reply_number', '-', 'parsed.gold_number') }})               as abs_error
    from parsed
)

select
    suite,
    response_id,
    item_id,
    system_id,
    repetition,
    case gold_kind when 'numeric_fact' then 'numeric' else 'string' end            as fact_kind,
    gold_key                                                                       as fact_key,
    gold_value,
    gold_number,
    abs_tol,
    rel_tol,
    reply_text,
    reply_token,
    reply_number,
    coalesce(right(reply_token, 1) = '%', false)                         as reply_is_percent,
    n_reply_numbers,
    abs_error,
    tolerance,
    case
        when gold_kind = 'numeric_fact' then coalesce(reply_number = gold_number, false)
        else coalesce(trim(reply_text) = trim(gold_value), false)
    end                                                                            as passed_exact,
    case
        when gold_kind = 'numeric_fact' then coalesce(abs_error <= tolerance, false)
        else coalesce(reply_folded = gold_folded, false)
    end                                                                            as passed,
    case
        when gold_kind = 'numeric_fact' and gold_number is null then 'invalid_gold'
        when reply_text is null then 'not_reported'
        when gold_kind = 'numeric_fact' and coalesce(n_reply_numbers, 0) = 0 then 'no_number'
        when gold_kind = 'numeric_fact' and reply_number is null then 'unparseable_number'
        when gold_kind = 'numeric_fact' and abs_error <= tolerance then 'within_tolerance'
        when gold_kind = 'numeric_fact' then 'out_of_tolerance'
        when reply_folded = gold_folded then 'match'
        else 'mismatch'
    end                                                                            as check_status
from compared
