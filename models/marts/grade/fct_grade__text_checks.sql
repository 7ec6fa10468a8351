{{ config(materialized='table') }}
-- GRADE claim checks (C3), one row per pack response x check: gold insights (searched in key_findings), required
-- limitations (in limitations), forbidden claims (anywhere: key_findings, limitations, raw text).
-- Deterministic first: a check is found in an item when every ';'-separated term of match_terms starts a word of
-- the item (case-folded word text, macro grade_word_text). A recorded judge verdict is the fallback: used only when
-- the deterministic match finds nothing and a verdict exists for that response and check.
with tasks as (
    select pack_id, task_id, item_id from {{ ref('int_grade__tasks') }}
),

checks as (
    select item_id, check_kind, check_id, check_text, match_terms, about_uncertainty
    from {{ ref('int_grade__checks') }}
),

term_pieces as (
    select item_id, check_kind, check_id, trim(piece) as term
    from (select item_id, check_kind, check_id, {{ split_pieces('match_terms', ';') }} as piece from checks) as p
),

terms as (
    select item_id, check_kind, check_id, rtrim({{ grade_word_text('term') }}) as term_words
    from term_pieces
    where term <> ''
),

term_counts as (
    select item_id, check_kind, check_id, count(*) as n_terms
    from terms
    group by item_id, check_kind, check_id
),

responses as (
    select r.response_id, r.item_id, r.system_id, r.repetition, r.raw_text
    from {{ ref('int_grade__responses') }} as r
    inner join tasks on tasks.item_id = r.item_id
),

texts as (
    select response_id, text_kind, position, {{ grade_word_text('text_value') }} as words
    from {{ ref('int_grade__response_texts') }}
),

eligible as (
    -- which texts each kind of check searches
    select 'gold_insight' as check_kind, 'key_finding' as text_kind
    union all
    select 'required_limitation', 'limitation'
    union all
    select 'forbidden_claim', 'key_finding'
    union all
    select 'forbidden_claim', 'limitation'
    union all
    select 'forbidden_claim', 'raw_text'
),

term_hits as (
    select responses.response_id, terms.check_kind, terms.check_id, texts.text_kind, texts.position,
           count(*) as n_terms_found
    from responses
    inner join terms on terms.item_id = responses.item_id
    inner join eligible on eligible.check_kind = terms.check_kind
    inner join texts
        on texts.response_id = responses.response_id
       and texts.text_kind = eligible.text_kind
    where instr(texts.words, terms.term_words) > 0
    group by responses.response_id, terms.check_kind, terms.check_id, texts.text_kind, texts.position
),

found as (
    select term_hits.response_id, term_hits.check_kind, term_hits.check_id,
           min(term_hits.text_kind || ':' || cast(term_hits.position as string)) as found_in
    from term_hits
    inner join responses on responses.response_id = term_hits.response_id
    inner join term_counts
        on term_counts.item_id = responses.item_id
       and term_counts.check_kind = term_hits.check_kind
       and term_counts.check_id = term_hits.check_id
    where term_hits.n_terms_found = term_counts.n_terms
    group by term_hits.response_id, term_hits.check_kind, term_hits.check_id
),

verdicts as (
    select response_id, check_kind, check_id, judge_present, judge
    from {{ ref('int_grade__check_verdicts') }}
),

grid as (
    select responses.response_id, responses.item_id, responses.system_id, responses.repetition,
           checks.check_kind, checks.check_id, checks.check_text, checks.about_uncertainty
    from responses
    inner join checks on checks.item_id = responses.item_id
)

select
    grid.response_id,
    grid.item_id,
    grid.system_id,
    grid.repetition,
    grid.check_kind,
    grid.check_id,
    grid.check_text,
    grid.about_uncertainty,
    found.found_in is not null                                                  as found_deterministic,
    found.found_in,
    verdicts.judge_present = 1                                                  as judge_says_present,
    verdicts.judge,
    case
        when found.found_in is not null then 'deterministic'
        when verdicts.response_id is not null then 'judge'
        else 'deterministic_no_judge'
    end                                                                         as method,
    coalesce(found.found_in is not null or verdicts.judge_present = 1, false)   as is_present,
    case
        when grid.check_kind = 'forbidden_claim'
            then case when coalesce(found.found_in is not null or verdicts.judge_present = 1, false) then 0 else 1 end
        when coalesce(found.found_in is not null or verdicts.judge_present = 1, false) then 1
        else 0
    end                                                                         as check_score
from grid
left join found
    on found.response_id = grid.response_id
   and found.check_kind = grid.check_kind
   and found.check_id = grid.check_id
left join verdicts
    on verdicts.response_id = grid.response_id
   and verdicts.check_kind = grid.check_kind
   and verdicts.check_id = grid.check_id
