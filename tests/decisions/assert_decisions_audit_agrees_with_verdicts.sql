-- The SQL verdict and the Python audit_financial_accuracy must agree wherever the public protocol does not
-- override: verified <-> verified, wrong <-> incorrect, anything else <-> not_verifiable.
select v.experiment_id, v.group_id, v.card_position, v.field_name, v.verdict, a.financial_accuracy
from {{ ref('fct_decisions__financial_verdicts') }} as v
inner join {{ ref('fct_decisions__card_audits') }} as a
    on a.experiment_id = v.experiment_id and a.group_id = v.group_id and a.card_position = v.card_position
   and a.field_name = v.field_name
where v.protocol_status <> 'protocol_invalid'
  and case v.verdict when 'verified' then 'verified' when 'wrong' then 'incorrect' else 'not_verifiable' end
      <> a.financial_accuracy
