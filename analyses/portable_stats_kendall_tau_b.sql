-- The kendall_tau_b macro (macros/portable_stats.sql) over a relation kendall_pairs (g, x, y), one tau-b per g:
-- compiled and run by python/tests/test_portable_stats.py against scipy.
{{ kendall_tau_b('kendall_pairs', ['g'], 'x', 'y') }}
