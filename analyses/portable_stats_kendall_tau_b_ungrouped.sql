-- The kendall_tau_b macro over the whole relation kendall_pairs (no group columns): python/tests/test_portable_stats.py.
{{ kendall_tau_b('kendall_pairs', [], 'x', 'y') }}
