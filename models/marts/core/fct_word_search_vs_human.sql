-- The word search beside a person: one row per response x human rater x rubric version where both a search
-- verdict and a person's content verdict exist. The person's content verdict is pass when every criterion in
-- criterion of the rubric's content_verdict rule (int_rubric_rules) is at its maximum, fail when any scored one is below it
-- (seed 000: "a person reads it: correct and complete"), NULL when none of them is scored.
with first_filter as (
    select * from {{ ref('int_first_filter') }}
),

content as (
    select
        suite, response_id, rater_id, rater_kind, rubric_id, rubric_version,
        cast(sum(case when score_status = 'scored' then 1 else 0 end) as integer)                          as n_content_scored,
        cast(sum(case when score_status = 'scored' and score < max_score then 1 else 0 end) as integer)    as n_content_below_max,
        cast(count(*) as integer)                                                                          as n_content_criteria
    from {{ ref('fct_criterion_scores') }} as scores
    where rater_kind = 'human'
      and exists (
          select 1 from {{ ref('int_rubric_rules') }} as rules
          where rules.rule = 'content_verdict' and rules.rubric_id = scores.rubric_id and rules.criterion = scores.criterion
      )
    group by suite, response_id, rater_id, rater_kind, rubric_id, rubric_version
),

human as (
    select
        content.*,
        case
            when content.n_content_below_max > 0 then 'fail'
            when content.n_content_scored = content.n_content_criteria then 'pass'
        end as human_verdict
    from content
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
where first_filter.word_search_verdict is not null
  and human.human_verdict is not null
