"""Four-group comparison of business decisions (decision cards) with P&L recomputed from raw POS rows.

Modules: ``money`` (exact money text parsing and the cents rounding rule), ``casepack`` (the deterministic case
pack generator), ``cards`` (public protocol check, card audits, financial verdict rule), ``regression`` (the internal
regression score of C cards), ``ingest`` (JSON results, golden, attempts -> rows for the dbt Python staging
models, numbers kept as exact text), ``export`` (the blind benchmark package).
"""
