-- The public financial protocol check, per recorded card. Applies to B (group B or B_*) and to every group whose
-- result file declares response_shape = public; other cards are 'not_checked'. A card fails (protocol_invalid) when
-- P&L IMPACT is missing, any of the six fields is missing or not a single number/null (e.g. a budget field written
-- as {actual, budget, variance}), P&L IMPACT.scope differs from the top-level scope, or target_metrics has no
-- complete scope of its own. A protocol_invalid card's numbers never enter verified / wrong.
with cards as (
    select cards.*, files.response_shape
    from {{ ref('int_decisions__result_cards') }} as cards
    inner join {{ ref('int_decisions__result_files') }} as files
        on files.experiment_id = cards.experiment_id and files.group_id = cards.group_id
),

claims as (
    select * from {{ ref('int_decisions__pnl_claims') }}
),

problems as (
    select experiment_id, group_id, card_position, 0 as problem_order, 'card_not_an_object' as problem
    from cards where card_kind <> 'object'
    union all
    select experiment_id, group_id, card_position, 1, 'pnl_impact_missing_or_not_an_object'
    from cards where card_kind = 'object' and pnl_kind <> 'object'
    union all
    select claims.experiment_id, claims.group_id, claims.card_position, 2,
           case
               when claims.json_kind = 'missing' then 'missing_field:' || claims.field_name
               when claims.json_kind = 'object' and claims.field_name in ('revenue_vs_budget', 'gross_margin_vs_budget')
                   then 'budget_field_is_an_object:' || claims.field_name || '{' || claims.object_keys || '}'
               else 'not_a_single_number:' || claims.field_name || '(' || claims.json_kind || ')'
           end
    from claims
    inner join cards
        on cards.experiment_id = claims.experiment_id and cards.group_id = claims.group_id
       and cards.card_position = claims.card_position
    where cards.pnl_kind = 'object' and claims.json_kind not in ('number', 'null')
    union all
    select experiment_id, group_id, card_position, 3, 'scope_differs_from_top_level_scope'
    from cards where pnl_scope_kind <> 'missing' and coalesce(pnl_scope_matches, 'false') <> 'true'
    union all
    select experiment_id, group_id, card_position, 4, 'target_metrics_without_declared_scope'
    from cards where target_metrics_kind <> 'missing' and coalesce(target_scope_complete, 'false') <> 'true'
),

agg as (
    select
        experiment_id, group_id, card_position,
        count(*) as n_problems,
        {{ string_agg_ordered('problem', 'problem_order, problem', '; ') }} as problems
    from problems
    group by experiment_id, group_id, card_position
)

select
    cards.experiment_id,
    cards.group_id,
    cards.group_arm,
    cast(cards.card_position as integer)                                   as card_position,
    cards.case_id,
    cards.response_shape,
    (cards.group_arm = 'B' or cards.response_shape = 'public')             as is_public_shape,
    case
        when not (cards.group_arm = 'B' or cards.response_shape = 'public') then 'not_checked'
        when agg.n_problems > 0 then 'protocol_invalid'
        else 'valid'
    end                                                                    as protocol_status,
    coalesce(agg.n_problems, 0)                                            as n_problems,
    agg.problems
from cards
left join agg
    on agg.experiment_id = cards.experiment_id and agg.group_id = cards.group_id
   and agg.card_position = cards.card_position
