-- The deterministic first filter per response (see int_first_filter), for analysts and the drill-down.
select * from {{ ref('int_first_filter') }}
