-- The SQL kappa the spark target uses (int_rater_pair_kappa_sql) gives the Python model's figures (DuckDB only: the
-- Python model is not built elsewhere). Returns the pairs x measures that differ (beyond 1e-12) or exist on one side.
{{ config(enabled=target.type == 'duckdb') }}
select coalesce(py.suite, sql_kappa.suite) as suite, coalesce(py.measure, sql_kappa.measure) as measure,
       py.rater_a, py.rater_b, py.cohen_kappa, sql_kappa.cohen_kappa as sql_cohen_kappa
from {{ ref('int_rater_pair_kappa') }} as py
full outer join {{ ref('int_rater_pair_kappa_sql') }} as sql_kappa
    on sql_kappa.suite = py.suite and sql_kappa.rubric_id = py.rubric_id
   and sql_kappa.rubric_version = py.rubric_version and sql_kappa.rater_a = py.rater_a
   and sql_kappa.rater_b = py.rater_b and sql_kappa.measure = py.measure
where py.suite is null or sql_kappa.suite is null
   or py.n_pairs <> sql_kappa.n_pairs
   or py.kappa_reason is distinct from sql_kappa.kappa_reason
   or (py.cohen_kappa is null) <> (sql_kappa.cohen_kappa is null)
   or (py.kappa_linear is null) <> (sql_kappa.kappa_linear is null)
   or (py.kappa_quadratic is null) <> (sql_kappa.kappa_quadratic is null)
   or abs(py.cohen_kappa - sql_kappa.cohen_kappa) > 1e-12
   or abs(py.kappa_linear - sql_kappa.kappa_linear) > 1e-12
   or abs(py.kappa_quadratic - sql_kappa.kappa_quadratic) > 1e-12
