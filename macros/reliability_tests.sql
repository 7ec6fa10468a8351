{#- reliability_unique_combination: no two rows share the same values of `columns` (NULLs compared as equal). -#}
{% test reliability_unique_combination(model, columns) %}
select {{ columns | join(', ') }}, count(*) as n_rows
from {{ model }}
group by {{ columns | join(', ') }}
having count(*) > 1
{% endtest %}
