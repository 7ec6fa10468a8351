-- Every pairwise comparison: each suite's comparisons table and the comparisons store (the pairwise scoring page,
-- judge runs), typed, with the two responses' systems and lengths and the item's difficulty. Nothing is dropped:
-- a row that cannot be used says why in comparison_problem (NULL when usable).
with suite_rows as (
    select
        'suite' as origin, suite, source_file, source_row, item_id, response_id_a, response_id_b, rater_id,
        rater_kind, shown_first, cast(preference as varchar) as preference_text, preference_label, reason,
        rated_at, judge_model, metadata, cast(null as varchar) as failure_reason
    from {{ ref('stg_suites__comparisons') }}
),

store_rows as (
    select
        'store' as origin, suite, source_file, source_row, item_id, response_id_a, response_id_b, rater_id,
        rater_kind, shown_first, preference_text, preference_label, reason, rated_at, judge_model,
        cast(null as varchar) as metadata, failure_reason
    from {{ ref('stg_comparisons_store__comparisons') }}
),

responses as (
    select suite, response_id, item_id, system_id, length(response_text) as response_length
    from {{ ref('int_responses') }}
),

items as (
    select suite, item_id, try_cast({{ json_text('metadata', 'instruction_difficulty') }} as double) as difficulty
    from {{ ref('int_items') }}
),

stacked as (
    select * from suite_rows
    union all
    select * from store_rows
),

typed as (
    select
        s.*,
        try_cast(s.preference_text as decimal(20, 10)) as preference_given,
        ra.system_id as system_a,
        rb.system_id as system_b,
        ra.item_id as item_of_a,
        rb.item_id as item_of_b,
        ra.response_length as length_a,
        rb.response_length as length_b,
        i.difficulty
    from stacked as s
    left join responses as ra on ra.suite = s.suite and ra.response_id = s.response_id_a
    left join responses as rb on rb.suite = s.suite and rb.response_id = s.response_id_b
    left join items as i on i.suite = s.suite and i.item_id = s.item_id
),

flagged as (
    select
        *,
        coalesce(preference_given,
                 case preference_label when 'a' then 0 when 'tie' then 0.5 when 'b' then 1 end) as preference_value,
        nullif(concat_ws('; ',
            case when failure_reason is not null then 'judge call failed: ' || failure_reason end,
            case when failure_reason is null and preference_text is null and preference_label is null
                 then 'no preference or preference_label' end,
            case when preference_text is not null and preference_given is null
                 then 'preference is not a number: ' || preference_text end,
            case when preference_given < 0 or preference_given > 1 then 'preference outside [0, 1]' end,
            case when preference_label is not null and preference_label not in ('a', 'b', 'tie')
                 then 'preference_label is not a, b or tie' end,
            case when preference_given between 0 and 1 and preference_label in ('a', 'b', 'tie')
                      and preference_label <> case when preference_given > 0.5 then 'b'
                                                   when preference_given < 0.5 then 'a' else 'tie' end
                 then 'preference_label disagrees with preference' end,
            case when shown_first is not null and shown_first not in ('a', 'b') then 'shown_first is not a or b' end,
            case when response_id_a = response_id_b then 'a response compared with itself' end,
            case when system_a is null then 'unknown response_id_a' end,
            case when system_b is null then 'unknown response_id_b' end,
            case when item_of_a <> item_id or item_of_b <> item_id then 'a response does not answer the item' end
        ), '') as comparison_problem
    from typed
)

select
    cast({{ row_hash("origin || '|' || suite || '|' || source_file || '|' || cast(source_row as varchar)") }}
         as varchar)                                        as comparison_id,
    cast(origin as varchar)                                 as origin,
    cast(suite as varchar)                                  as suite,
    cast(source_file as varchar)                            as source_file,
    cast(source_row as integer)                             as source_row,
    cast(item_id as varchar)                                as item_id,
    cast(response_id_a as varchar)                          as response_id_a,
    cast(response_id_b as varchar)                          as response_id_b,
    cast(system_a as varchar)                               as system_a,
    cast(system_b as varchar)                               as system_b,
    cast(rater_id as varchar)                               as rater_id,
    cast(rater_kind as varchar)                             as rater_kind,
    cast(case when rater_kind = 'human' then 'people' else rater_id end as varchar) as rater_group,
    cast(shown_first as varchar)                            as shown_first,
    cast(case when comparison_problem is null then preference_value end as decimal(11, 10)) as preference,
    cast(preference_text as varchar)                        as preference_as_given,
    cast(case when comparison_problem is null
              then case when preference_value > 0.5 then 'b' when preference_value < 0.5 then 'a' else 'tie' end
         end as varchar)                                    as preference_label,
    cast(case when preference_given is not null then 'preference' when preference_label is not null then 'label' end
         as varchar)                                        as preference_source,
    cast(reason as varchar)                                 as reason,
    cast(rated_at as timestamp)                             as rated_at,
    cast(judge_model as varchar)                            as judge_model,
    cast(length_a as integer)                               as length_a,
    cast(length_b as integer)                               as length_b,
    cast(difficulty as double)                              as instruction_difficulty,
    cast(metadata as varchar)                               as metadata,
    cast(comparison_problem as varchar)                     as comparison_problem
from flagged
