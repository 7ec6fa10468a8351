-- The shared data model's gold for every suite (union_suites).
-- A landed copy (macros/landed_copy.sql): on DuckDB kept while the landed gold, its staging view and this model are
-- the same.
{{ config(materialized=landed_copy_materialized(), incremental_strategy='append', on_schema_change='fail',
          pre_hook="{{ landed_copy_prepare('gold') }}", post_hook="{{ landed_copy_mark('gold') }}") }}
{{ union_suites('gold', ['suite', 'item_id', 'gold_kind', 'gold_key', 'gold_value', 'abs_tol', 'rel_tol',
                         'metadata']) }}
{{ landed_copy_filter() }}
