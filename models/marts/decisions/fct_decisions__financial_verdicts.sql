-- One row per recorded card x top-level P&L field: the claimed value against the exact recomputation.
-- verdict (first rule that applies):
--   protocol_invalid             public-shape card failing the protocol check, or a field that is not a number/null
--   unknown_case                 the card names a case that is not in the pack
--   unsupported_financial_claim  the field cannot be recomputed (invalid raw data, or no cost / budget / inventory
--                                in the source) and the card claims a number
--   invalid_source               the field cannot be recomputed and the card gives null (or omits it)
--   withheld                     recomputable, claim null or missing
--   verified                     |claimed - recomputed| <= 0.01 (exact decimals, boundary inclusive)
--   wrong                        otherwise
-- near_relative_1pct: a wrong claim within 1% of |recomputed| -- a diagnostic count, never a verdict.
with claims as (
    select * from {{ ref('int_decisions__pnl_claims') }}
),

protocol as (
    select * from {{ ref('fct_decisions__protocol_check') }}
),

recomputed as (
    select * from {{ ref('fct_decisions__pnl_recomputed') }}
),

joined as (
    select
        claims.experiment_id,
        claims.group_id,
        protocol.group_arm,
        cast(claims.card_position as integer)                           as card_position,
        claims.case_id,
        claims.field_name,
        claims.json_kind,
        claims.claimed_text,
        case when claims.json_kind = 'number' then try_cast(claims.claimed_text as decimal(38, 12)) end as claimed_value,
        protocol.protocol_status,
        recomputed.recompute_status,
        recomputed.recomputed_value,
        recomputed.case_id is not null                                  as case_known
    from claims
    inner join protocol
        on protocol.experiment_id = claims.experiment_id and protocol.group_id = claims.group_id
       and protocol.card_position = cast(claims.card_position as integer)
    left join recomputed
        on recomputed.case_id = claims.case_id and recomputed.field_name = claims.field_name
),

judged as (
    select
        joined.*,
        cast(abs(joined.claimed_value - joined.recomputed_value) as decimal(38, 12)) as abs_difference,
        case
            when joined.protocol_status = 'protocol_invalid' then 'protocol_invalid'
            when joined.json_kind not in ('number', 'null', 'missing') then 'protocol_invalid'
            when joined.json_kind = 'number' and joined.claimed_value is null then 'protocol_invalid'
            when not joined.case_known then 'unknown_case'
            when joined.recompute_status <> 'ok' and joined.json_kind = 'number' then 'unsupported_financial_claim'
            when joined.recompute_status <> 'ok' then 'invalid_source'
            when joined.json_kind in ('null', 'missing') then 'withheld'
            when abs(joined.claimed_value - joined.recomputed_value) <= {{ decisions_abs_tolerance() }} then 'verified'
            else 'wrong'
        end as verdict
    from joined
)

select
    experiment_id,
    group_id,
    group_arm,
    card_position,
    case_id,
    field_name,
    json_kind,
    claimed_text,
    claimed_value,
    recomputed_value,
    recompute_status,
    protocol_status,
    abs_difference,
    verdict,
    verdict in ('withheld', 'invalid_source', 'protocol_invalid', 'unknown_case') as is_not_verifiable,
    verdict = 'wrong' and abs_difference <= cast('0.01' as decimal(38, 12)) * abs(recomputed_value) as near_relative_1pct
from judged
