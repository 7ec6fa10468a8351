{{ config(pre_hook=["{{ recursive_cte_limit('level', 62 * grade_consistency_mask_words() + 10) }}",
                          "{{ recursive_cte_limit('row', -1) }}"]) }}
-- GRADE consistency, step 2 of 3: the greedy clustering of evalhouse.grade.consistency.cluster_findings in SQL. The
-- findings are visited in order k (int_grade__consistency_findings); a finding joins the first unique finding (its
-- first occurrence) it matches, else it starts a new one. A recursive CTE over k keeps the unique findings so far
-- as bit masks r0..r3: finding k's matches among them are m & r, the earliest is the lowest set bit (h & -h), and
-- uid = the visit index of that unique finding's first occurrence (k itself for a new one). One row per finding of
-- a task x run with at most 62 x grade_consistency_mask_words() findings (Spark's recursion limits raised by the
-- pre-hooks). A table, not CTEs of the mart: with the findings and the statistics in one query, Spark re-evaluated
-- the CTEs at every iteration and reference (352 s on the bundled data at load 7; split, ~60 s for the three).
{%- set words = grade_consistency_mask_words() %}
with recursive steps as (
    select * from {{ ref('int_grade__consistency_findings') }}
    where n_findings <= {{ 62 * words }}
),

-- the greedy pass: r* = the unique findings' first occurrences so far; uid = the visit index of the unique finding
-- finding k belongs to (the lowest matching bit, h & -h, is the earliest matching unique finding)
clustering (item_id, system_id, k{% for w in range(words) %}, r{{ w }}{% endfor %}, uid) as (
    select item_id, system_id, k, {% for w in range(words) %}b{{ w }}, {% endfor %}cast(1 as bigint) as uid
    from steps
    where k = 1

    union all

    select
        s.item_id,
        s.system_id,
        s.k,
        {%- for w in range(words) %}
        case when {% for v in range(words) %}(s.m{{ v }} & c.r{{ v }}) = 0{{ ' and ' if not loop.last }}{% endfor %}
             then c.r{{ w }} | s.b{{ w }} else c.r{{ w }} end,
        {%- endfor %}
        case
            {%- for w in range(words) %}
            when (s.m{{ w }} & c.r{{ w }}) <> 0
                then {{ 62 * w + 1 }} + cast(round(ln(cast((s.m{{ w }} & c.r{{ w }}) & -(s.m{{ w }} & c.r{{ w }}) as double)) / ln(2)) as bigint)
            {%- endfor %}
            else s.k
        end
    from clustering as c
    inner join steps as s
        on s.item_id = c.item_id
       and s.system_id = c.system_id
       and s.k = c.k + 1
)

select s.item_id, s.system_id, s.repetition, s.k, c.uid
from clustering as c
inner join steps as s
    on s.item_id = c.item_id and s.system_id = c.system_id and s.k = c.k
