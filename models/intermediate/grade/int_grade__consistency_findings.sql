-- GRADE consistency, step 1 of 3 (int_grade__consistency_findings -> int_grade__consistency_clusters ->
-- fct_grade__consistency; evalhouse.grade.consistency is the reference): one row per key finding the consistency
-- reads, per task x run (system_id) in visit order k = 1, 2, ... (run by run in repetition order, rank by rank):
-- each run's first 3 key findings, blank ones (Python's str.strip() whitespace) and NULL texts skipped. m0..m3: the
-- earlier findings j < k it matches, as bit masks (bit (j - 1) mod 62 of word (j - 1) div 62); a match is token
-- Jaccard >= 0.5 between the casefolded word-token sets (grade_word_text: runs of letters and digits after
-- grade_casefold), 2 |A & B| >= |A | B| exactly in integers (a text without a word token matches nothing). b0..b3:
-- finding k's own bit. n_findings: the findings of its task x run (more than 62 x grade_consistency_mask_words() are
-- not clustered).
{%- set words = grade_consistency_mask_words() %}
with responses as (
    select response_id, item_id, system_id, repetition from {{ ref('int_grade__responses') }}
),

ranked as (
    select
        r.item_id,
        r.system_id,
        r.repetition,
        t.text_value,
        row_number() over (partition by t.response_id order by t.position) as rank_in_run
    from {{ ref('int_grade__response_texts') }} as t
    inner join responses as r on r.response_id = t.response_id
    where t.text_kind = 'key_finding' and t.position <= 3
),

-- the findings in visit order k = 1, 2, ... per task x run (run by run, rank by rank)
findings as (
    select
        item_id,
        system_id,
        repetition,
        text_value,
        row_number() over (partition by item_id, system_id order by repetition, rank_in_run) as k
    from ranked
    where rank_in_run <= 3 and text_value is not null and not {{ is_blank('text_value') }}
),

finding_counts as (
    select item_id, system_id, max(k) as n_findings
    from findings
    group by item_id, system_id
),

-- the word-token work is done once per distinct text of a task x run (runs often repeat a finding word for word)
texts as (
    select
        item_id,
        system_id,
        text_value,
        dense_rank() over (partition by item_id, system_id order by text_value) as text_id
    from (select distinct item_id, system_id, text_value from findings) as distinct_texts
),

finding_texts as (
    select f.item_id, f.system_id, f.k, t.text_id
    from findings as f
    inner join texts as t
        on t.item_id = f.item_id and t.system_id = f.system_id and t.text_value = f.text_value
),

tokens as (
    select distinct item_id, system_id, text_id, token
    from (
        select item_id, system_id, text_id,
               {{ split_pieces('trim(' ~ grade_word_text('text_value') ~ ')', ' ') }} as token
        from texts
    ) as pieces
    where token <> ''
),

token_counts as (
    select item_id, system_id, text_id, count(*) as n_tokens
    from tokens
    group by item_id, system_id, text_id
),

-- pairs of texts (text_a <= text_b) with token Jaccard >= 0.5: 2 |A & B| >= |A | B|; a text with a word token
-- matches itself, one without matches nothing
text_matches as (
    select s.item_id, s.system_id, s.text_a, s.text_b
    from (
        select a.item_id, a.system_id, a.text_id as text_a, b.text_id as text_b, count(*) as n_shared
        from tokens as a
        inner join tokens as b
            on b.item_id = a.item_id
           and b.system_id = a.system_id
           and b.token = a.token
           and b.text_id >= a.text_id
        group by a.item_id, a.system_id, a.text_id, b.text_id
    ) as s
    inner join token_counts as ca
        on ca.item_id = s.item_id and ca.system_id = s.system_id and ca.text_id = s.text_a
    inner join token_counts as cb
        on cb.item_id = s.item_id and cb.system_id = s.system_id and cb.text_id = s.text_b
    where 2 * s.n_shared >= ca.n_tokens + cb.n_tokens - s.n_shared
),

-- for each finding k, the earlier findings j it matches, as bit masks: bit (j - 1) mod 62 of word (j - 1) div 62
match_masks as (
    select
        f.item_id,
        f.system_id,
        f.k,
        {%- for w in range(words) %}
        cast(sum(case when e.k between {{ 62 * w + 1 }} and {{ 62 * w + 62 }}
                      then cast(power(2, e.k - {{ 62 * w + 1 }}) as bigint) else 0 end) as bigint) as m{{ w }}{{ ',' if not loop.last }}
        {%- endfor %}
    from finding_texts as f
    inner join finding_texts as e
        on e.item_id = f.item_id
       and e.system_id = f.system_id
       and e.k < f.k
    inner join text_matches as m
        on m.item_id = f.item_id
       and m.system_id = f.system_id
       and m.text_a = least(f.text_id, e.text_id)
       and m.text_b = greatest(f.text_id, e.text_id)
    group by f.item_id, f.system_id, f.k
)

select
    f.item_id,
    f.system_id,
    f.repetition,
    f.k,
    n.n_findings,
    {%- for w in range(words) %}
    coalesce(m.m{{ w }}, cast(0 as bigint)) as m{{ w }},
    case when f.k between {{ 62 * w + 1 }} and {{ 62 * w + 62 }}
         then cast(power(2, f.k - {{ 62 * w + 1 }}) as bigint) else cast(0 as bigint) end as b{{ w }}{{ ',' if not loop.last }}
    {%- endfor %}
from findings as f
inner join finding_counts as n
    on n.item_id = f.item_id and n.system_id = f.system_id
left join match_masks as m
    on m.item_id = f.item_id and m.system_id = f.system_id and m.k = f.k
