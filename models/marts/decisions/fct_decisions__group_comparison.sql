-- The group comparison, per experiment x group. Complete-set metrics (*_complete) only when every compared group
-- (every group that ran and whose file reads) has all core cases recorded exactly once with a legal decision;
-- otherwise the experiment is partial and only the common paired subset (*_common) is reported, with the missing
-- and duplicated cases listed. A group that did not run has every metric NULL (never 0). Shares are DECIMAL(9, 6).
-- accepted_decision_agreement: share of cases whose DECISION is among the case's pre-frozen accepted decisions
-- (agreement with synthetic labels, not real-world accuracy). selective_non_hold_coverage: cases whose golden
-- expects ACT / INVESTIGATE / ESCALATE and where the group chose an accepted non-HOLD decision, over ALL such cases
-- (so always answering HOLD gets 0). unsafe_act_count: ACT where golden marks ACT unsafe or without explicit human
-- approval.
with outcomes as (
    select * from {{ ref('fct_decisions__card_outcomes') }}
),

files as (
    select * from {{ ref('int_decisions__result_files') }}
),

n_core as (
    select count(*) as n_core_cases from {{ ref('int_decisions__case_source_status') }} where case_role = 'core'
),

per_group as (
    select
        experiment_id,
        group_id,
        sum(case when case_role = 'core' and case_status = 'recorded' then 1 else 0 end)   as n_core_recorded,
        sum(n_cards)                                                                        as n_cards,
        {{ string_agg_ordered("case when case_role = 'core' and case_status = 'missing' then case_id end", 'case_id', ',') }}
                                                                                            as missing_cases,
        {{ string_agg_ordered("case when case_status = 'duplicated' then case_id end", 'case_id', ',') }}
                                                                                            as duplicated_cases,
        {{ string_agg_ordered("case when case_status = 'no_valid_decision' then case_id end", 'case_id', ',') }}
                                                                                            as cases_without_valid_decision,
        sum(case when protocol_status = 'protocol_invalid' then 1 else 0 end)               as n_protocol_invalid_cards
    from outcomes
    group by experiment_id, group_id
),

group_status as (
    select
        files.experiment_id,
        files.group_id,
        files.group_arm,
        files.declared_status,
        files.file_error,
        per_group.n_cards,
        per_group.n_core_recorded,
        per_group.missing_cases,
        per_group.duplicated_cases,
        per_group.cases_without_valid_decision,
        per_group.n_protocol_invalid_cards,
        case
            when files.declared_status = 'not_run' then 'not_run'
            when files.file_error is not null then 'unreadable'
            when per_group.duplicated_cases is not null then 'duplicate_cases'
            when per_group.n_core_recorded = (select n_core.n_core_cases from n_core) then 'complete'
            else 'partial'
        end as group_status
    from files
    left join per_group on per_group.experiment_id = files.experiment_id and per_group.group_id = files.group_id
),

experiment_status as (
    select
        experiment_id,
        case
            when sum(case when group_status not in ('not_run', 'unreadable') then 1 else 0 end) = 0 then 'no_group_ran'
            when sum(case when group_status in ('partial', 'duplicate_cases') then 1 else 0 end) = 0 then 'complete'
            else 'partial'
        end as experiment_status,
        sum(case when group_status not in ('not_run', 'unreadable') then 1 else 0 end) as n_compared_groups
    from group_status
    group by experiment_id
),

metrics as (
    select
        experiment_id,
        group_id,
        -- complete set: every core case (missing ones count as unanswered; only used when the set is complete)
        sum(case when case_role = 'core' and is_accepted then 1 else 0 end)                       as agree_all,
        sum(case when case_role = 'core' and golden_expects_non_hold then 1 else 0 end)           as non_hold_all,
        sum(case when case_role = 'core' and is_selective_non_hold_hit then 1 else 0 end)         as hits_all,
        sum(case when case_role = 'core' and is_unsafe_act then 1 else 0 end)                    as unsafe_all,
        sum(case when case_role = 'core' then coalesce(fin_verified, 0) else 0 end)               as fin_verified_all,
        sum(case when case_role = 'core' then coalesce(fin_wrong, 0) else 0 end)                  as fin_wrong_all,
        sum(case when case_role = 'core' then coalesce(fin_not_verifiable, 0) else 0 end)         as fin_not_verifiable_all,
        sum(case when case_role = 'core' then coalesce(fin_unsupported, 0) else 0 end)            as fin_unsupported_all,
        sum(case when case_role = 'core' then coalesce(fin_near_relative_1pct, 0) else 0 end)     as fin_near_all,
        -- common paired subset
        sum(case when in_common_subset then 1 else 0 end)                                          as n_common,
        sum(case when in_common_subset and is_accepted then 1 else 0 end)                          as agree_common,
        sum(case when in_common_subset and golden_expects_non_hold then 1 else 0 end)              as non_hold_common,
        sum(case when in_common_subset and is_selective_non_hold_hit then 1 else 0 end)            as hits_common,
        sum(case when in_common_subset and is_unsafe_act then 1 else 0 end)                        as unsafe_common,
        sum(case when in_common_subset then fin_verified else 0 end)                               as fin_verified_common,
        sum(case when in_common_subset then fin_wrong else 0 end)                                  as fin_wrong_common,
        sum(case when in_common_subset then fin_not_verifiable else 0 end)                         as fin_not_verifiable_common,
        sum(case when in_common_subset then fin_unsupported else 0 end)                            as fin_unsupported_common
    from outcomes
    group by experiment_id, group_id
)

select
    g.experiment_id,
    e.experiment_status,
    e.n_compared_groups,
    g.group_id,
    g.group_arm,
    g.group_status,
    g.group_status not in ('not_run', 'unreadable')                                         as is_compared,
    g.file_error,
    case when g.group_status <> 'not_run' then g.n_cards end                                as n_cards,
    case when g.group_status <> 'not_run' then g.n_core_recorded end                        as n_core_cases_recorded,
    g.missing_cases,
    g.duplicated_cases,
    g.cases_without_valid_decision,
    case when g.group_status <> 'not_run' then g.n_protocol_invalid_cards end               as n_protocol_invalid_cards,
    -- complete-set metrics
    case when g.ok_complete then {{ decisions_share('m.agree_all', '(select n_core.n_core_cases from n_core)') }} end
                                                                                            as accepted_decision_agreement_complete,
    case when g.ok_complete then {{ decisions_share('m.hits_all', 'm.non_hold_all') }} end  as selective_non_hold_coverage_complete,
    case when g.ok_complete then m.non_hold_all end                                         as n_golden_non_hold_complete,
    case when g.ok_complete then m.unsafe_all end                                           as unsafe_act_count_complete,
    case when g.ok_complete then m.fin_verified_all end                                     as financial_verified_complete,
    case when g.ok_complete then m.fin_wrong_all end                                        as financial_wrong_complete,
    case when g.ok_complete then m.fin_not_verifiable_all end                               as financial_not_verifiable_complete,
    case when g.ok_complete then m.fin_unsupported_all end                                  as financial_unsupported_claims_complete,
    case when g.ok_complete then m.fin_near_all end                                         as near_relative_1pct_count_complete,
    -- common paired subset metrics
    case when g.ok_common then m.n_common end                                               as n_common_cases,
    case when g.ok_common then {{ decisions_share('m.agree_common', 'm.n_common') }} end   as accepted_decision_agreement_common,
    case when g.ok_common then {{ decisions_share('m.hits_common', 'm.non_hold_common') }} end as selective_non_hold_coverage_common,
    case when g.ok_common then m.unsafe_common end                                          as unsafe_act_count_common,
    case when g.ok_common then m.fin_verified_common end                                    as financial_verified_common,
    case when g.ok_common then m.fin_wrong_common end                                       as financial_wrong_common,
    case when g.ok_common then m.fin_not_verifiable_common end                              as financial_not_verifiable_common,
    case when g.ok_common then m.fin_unsupported_common end                                 as financial_unsupported_claims_common
from (
    select
        group_status.*,
        experiment_status.experiment_status = 'complete' and group_status.group_status = 'complete' as ok_complete,
        group_status.group_status not in ('not_run', 'unreadable')                            as ok_common
    from group_status
    inner join experiment_status on experiment_status.experiment_id = group_status.experiment_id
) as g
inner join experiment_status as e on e.experiment_id = g.experiment_id
left join metrics as m on m.experiment_id = g.experiment_id and m.group_id = g.group_id
