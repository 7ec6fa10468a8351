-- The percentile_bootstrap macro (macros/portable_stats.sql) over a relation bootstrap_values (g, k, v): the mean of
-- v per g (den 1), 500 resamples, 90% level; compiled and run by python/tests/test_portable_stats.py.
{{ percentile_bootstrap('bootstrap_values', ['g'], 'v', '1', 'k', n_boot=500, level=0.9) }}
