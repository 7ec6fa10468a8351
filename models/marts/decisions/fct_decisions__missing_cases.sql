-- Every core case a compared group did not record exactly once (missing, duplicated or without a legal decision),
-- with its attempt segments: each attempt of the experiment that dispatched this group x case or touched this
-- group without dispatching any case, in attempt order, as "NNN:status(outcome)".
with outcomes as (
    select * from {{ ref('fct_decisions__card_outcomes') }}
    where case_role = 'core' and case_status in ('missing', 'duplicated', 'no_valid_decision')
),

attempts as (
    select * from {{ ref('int_decisions__attempts') }}
),

segments as (
    select
        outcomes.experiment_id, outcomes.group_id, outcomes.case_id,
        attempts.attempt_id,
        attempts.attempt_id || ':' || coalesce(attempts.attempt_status, '?')
            || '(' || coalesce(attempts.dispatch_outcome, 'no case dispatched') || ')' as segment
    from outcomes
    inner join attempts
        on attempts.experiment_id = outcomes.experiment_id and attempts.group_id = outcomes.group_id
       and (attempts.case_id = outcomes.case_id or attempts.case_id is null)
)

select
    outcomes.experiment_id,
    outcomes.group_id,
    outcomes.group_arm,
    outcomes.case_id,
    outcomes.case_status,
    outcomes.n_cards,
    outcomes.n_distinct_decisions,
    count(segments.attempt_id)                                                    as n_attempt_segments,
    {{ string_agg_ordered('segments.segment', 'segments.attempt_id', '; ') }}  as attempt_segments
from outcomes
left join segments
    on segments.experiment_id = outcomes.experiment_id and segments.group_id = outcomes.group_id
   and segments.case_id = outcomes.case_id
group by outcomes.experiment_id, outcomes.group_id, outcomes.group_arm, outcomes.case_id, outcomes.case_status,
         outcomes.n_cards, outcomes.n_distinct_decisions
