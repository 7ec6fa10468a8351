-- The responses the first filter's text checks read: every response of the suites in var('first_filter_suites')
-- (reply suites with text, answer keys and phrases). The grounding suites (numeric answers to TAT-QA / GSM8K) are
-- left out: a language or sentence count says nothing about them, and they are scored by the GRADE fact checks.
select *
from {{ ref('int_responses') }}
where suite in ({% for s in var('first_filter_suites') %}'{{ s }}'{% if not loop.last %}, {% endif %}{% endfor %})
