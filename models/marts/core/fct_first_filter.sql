-- The deterministic first filter per response (see int_first_filter), for analysts and the drill-down: a view, so the
-- million-row table is not copied on every build.
{{ config(materialized='view') }}
select * from {{ ref('int_first_filter') }}
