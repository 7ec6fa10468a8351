{{ config(materialized='table') }}
-- GRADE dimension scores per pack response (pack x task x model x run), each in [0, 1], DECIMAL(18,12).
-- Consistency is per task x model over the runs (fct_grade__consistency), not per run.
with responses as (
    select r.response_id, t.pack_id, t.task_id, r.item_id, r.system_id, r.repetition, r.raw_text,
           t.track, t.entity_id_regex
    from {{ ref('int_grade__responses') }} as r
    inner join {{ ref('int_grade__tasks') }} as t on t.item_id = r.item_id
),

grounding as (
    select response_id,
           count(*)                                                    as n_facts,
           sum(case when passed then 1 else 0 end)                     as n_facts_passed
    from {{ ref('fct_grade__fact_checks') }}
    where suite = 'grade'
    group by response_id
),

text_checks as (
    select
        response_id,
        sum(case when check_kind = 'gold_insight' then check_score end)                              as insights_found,
        sum(case when check_kind = 'gold_insight' then 1 end)                                        as n_insights,
        sum(case when check_kind = 'required_limitation' then check_score end)                       as limitations_found,
        sum(case when check_kind = 'required_limitation' then 1 end)                                 as n_limitations,
        sum(case when check_kind = 'forbidden_claim' then check_score end)                           as claims_absent,
        sum(case when check_kind = 'forbidden_claim' then 1 end)                                     as n_forbidden,
        sum(case when check_kind = 'gold_insight' and about_uncertainty then check_score end)        as unc_insights_found,
        sum(case when check_kind = 'gold_insight' and about_uncertainty then 1 end)                  as n_unc_insights,
        sum(case when method = 'judge' then 1 else 0 end)                                            as n_judge_fallbacks
    from {{ ref('fct_grade__text_checks') }}
    group by response_id
),

judge as (
    select
        ratings.response_id,
        ratings.criterion,
        avg(cast(ratings.score - criteria.min_score as double) / (criteria.max_score - criteria.min_score)) as score01,
        count(*)                                                        as n_ratings,
        {{ string_agg_ordered('ratings.rater_id', 'ratings.rater_id', ', ') }}          as judges
    from {{ ref('int_ratings') }} as ratings
    inner join {{ ref('int_rubric_criteria') }} as criteria
        on criteria.rubric_id = ratings.rubric_id
       and criteria.rubric_version = ratings.rubric_version
       and criteria.criterion = ratings.criterion
    where ratings.suite = 'grade' and ratings.rater_kind = 'judge' and ratings.score is not null
    group by ratings.response_id, ratings.criterion
),

all_text as (
    select response_id, text_value as txt from {{ ref('int_grade__response_texts') }}
),

evidence_markers as (
    select
        all_text.response_id,
        max(case when {{ regex_contains('all_text.txt', 'responses.entity_id_regex') }} then 1 else 0 end) as has_entity_id,
        max(case when {{ regex_contains('all_text.txt', "'[0-9] ?%|(^|[^0-9.])0[.][0-9]+'") }} then 1 else 0 end) as has_numeric_rate
    from all_text
    inner join responses on responses.response_id = all_text.response_id
    group by all_text.response_id
),

scored as (
    select
        responses.*,
        grounding.n_facts,
        grounding.n_facts_passed,
        {{ grade_score('cast(grounding.n_facts_passed as double) / nullif(grounding.n_facts, 0)') }}           as grounding_accuracy,
        {{ grade_score('cast(text_checks.insights_found as double) / nullif(text_checks.n_insights, 0)') }}    as insight_quality,
        {{ grade_score('cast(text_checks.limitations_found as double) / nullif(text_checks.n_limitations, 0)') }} as limitations_present,
        {{ grade_score('cast(text_checks.claims_absent as double) / nullif(text_checks.n_forbidden, 0)') }}    as forbidden_claims_absent,
        {{ grade_score('cast(text_checks.unc_insights_found as double) / nullif(text_checks.n_unc_insights, 0)') }} as uncertainty_insights_present,
        coalesce(text_checks.n_judge_fallbacks, 0)                                                               as n_judge_fallbacks,
        {{ grade_score('ev.score01') }}                                                                          as evidence_linkage_judge,
        ev.judges                                                                                                as evidence_judges,
        coalesce(evidence_markers.has_entity_id, 0) = 1                                                          as has_entity_id,
        coalesce(evidence_markers.has_numeric_rate, 0) = 1                                                       as has_numeric_rate,
        {{ grade_score('st.score01') }}                                                                          as structure_usability,
        st.judges                                                                                                as structure_judges
    from responses
    left join grounding on grounding.response_id = responses.response_id
    left join text_checks on text_checks.response_id = responses.response_id
    left join judge as ev on ev.response_id = responses.response_id and ev.criterion = 'evidence_linkage'
    left join judge as st on st.response_id = responses.response_id and st.criterion = 'structure_usability'
    left join evidence_markers on evidence_markers.response_id = responses.response_id
)

select
    response_id,
    pack_id,
    task_id,
    item_id,
    track,
    system_id,
    repetition,
    n_facts,
    n_facts_passed,
    grounding_accuracy,
    insight_quality,
    limitations_present,
    forbidden_claims_absent,
    uncertainty_insights_present,
    {{ grade_score(
        '(coalesce(limitations_present, 0) + coalesce(forbidden_claims_absent, 0) + coalesce(uncertainty_insights_present, 0))'
        ~ ' / nullif((case when limitations_present is null then 0 else 1 end)'
        ~ ' + (case when forbidden_claims_absent is null then 0 else 1 end)'
        ~ ' + (case when uncertainty_insights_present is null then 0 else 1 end), 0)') }}   as calibration_limitation_handling,
    n_judge_fallbacks,
    evidence_linkage_judge,
    evidence_judges,
    has_entity_id,
    has_numeric_rate,
    track = 3 and not (has_entity_id and has_numeric_rate)                                    as track3_rule_applied,
    case
        when track = 3 and not (has_entity_id and has_numeric_rate) then {{ grade_score('0') }}
        else evidence_linkage_judge
    end                                                                                         as evidence_linkage,
    structure_usability,
    structure_judges
from scored
