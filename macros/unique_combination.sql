{#-
  unique_combination: the grain test of a model. No two rows share the same values of `columns` (a list of column
  names; one column is the plain `unique` test). NULLs compare as equal, so a NULL in a key column is a duplicate
  of another NULL. Fails with one row per duplicated key and its row count n_rows.
  On an incremental rating-chain model that this `dbt build` ran incrementally, only the rows it recomputed are
  checked (rating_chain_test_filter); every other run checks every row.
-#}
{% test unique_combination(model, columns) %}
select {{ columns | join(', ') }}, count(*) as n_rows
from {{ model }}
{{ rating_chain_test_filter(model, columns) }}
group by {{ columns | join(', ') }}
having count(*) > 1
{% endtest %}
