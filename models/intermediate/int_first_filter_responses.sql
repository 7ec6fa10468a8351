{{ config(materialized='view') }}
-- The responses the first filter's text checks read: every response of the suites whose suite.yml says
-- first_filter: true (reply suites with text, answer keys and phrases). The grounding suites (numeric answers to
-- TAT-QA / GSM8K) are left out: a language or sentence count says nothing about them, and they are scored by the
-- GRADE fact checks.
-- A view: a filter of int_responses that the first filter's models read once each (a table copied every reply
-- text on every build: 9-12 s at 1M replies).
select *
from {{ ref('int_responses') }}
where suite in (select suites.suite from {{ ref('stg_suites__suites') }} as suites where suites.first_filter)
