-- A group that did not run has every metric NULL (never 0).
select experiment_id, group_id from {{ ref('fct_decisions__group_comparison') }}
where group_status = 'not_run'
  and (n_cards is not null or accepted_decision_agreement_complete is not null
       or selective_non_hold_coverage_complete is not null or unsafe_act_count_complete is not null
       or financial_verified_complete is not null or financial_wrong_complete is not null
       or financial_not_verifiable_complete is not null or n_common_cases is not null
       or accepted_decision_agreement_common is not null or selective_non_hold_coverage_common is not null
       or unsafe_act_count_common is not null or financial_verified_common is not null)
