-- The seed lesson's explorer ("Rank four replies before you see the models"): one row per ticket x panel letter
-- A-D, with the reply as printed (NULL when the lesson does not print it), the hidden model run and the course team's
-- rubric scores under rubric version 1 (the scores the lesson reveals). Read by the app's ranking practice page.
with replies as (
    select *
    from (
        select response_id, item_id, system_id, response_text,
               {{ json_text('metadata', 'panel_letter') }} as lesson_panel_letter
        from {{ ref('int_responses') }}
        where suite = 'larkfield'
    ) as r
    where lesson_panel_letter in ('A', 'B', 'C', 'D')
),

items as (
    select item_id, language, input_text from {{ ref('dim_items') }} where suite = 'larkfield'
),

scores as (
    select * from {{ ref('fct_larkfield_reply_scores') }}
    where rater_id = 'course_team' and rubric_version = 1
),

reasons as (
    select response_id, min(reason) as reason
    from {{ ref('fct_criterion_scores') }}
    where suite = 'larkfield' and rater_id = 'course_team' and rubric_version = 1
    group by response_id
)

select
    replies.item_id                  as ticket_id,
    items.language,
    items.input_text                 as ticket_text,
    replies.lesson_panel_letter      as panel_letter,
    replies.response_id,
    replies.system_id,
    replies.response_text            as reply_text,
    scores.correctness,
    scores.completeness,
    scores.format_compliance,
    scores.appropriate_abstention,
    scores.total,
    scores.ready,
    reasons.reason
from replies
left join items on items.item_id = replies.item_id
left join scores on scores.response_id = replies.response_id
left join reasons on reasons.response_id = replies.response_id
