-- One row per rating round: its definition (stg_rounds_store__rounds) with the number of raters listed.
with rounds as (
    select * from {{ ref('stg_rounds_store__rounds') }}
)

select
    rounds.*,
    cast(length(rounds.raters) - length(replace(rounds.raters, ';', '')) + 1 as integer) as n_raters
from rounds
