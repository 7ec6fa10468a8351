-- HANNA has no answer keys: an empty gold model keeps the shared data model complete.
select
    cast(null as varchar) as suite, cast(null as varchar) as item_id, cast(null as varchar) as gold_kind,
    cast(null as varchar) as gold_key, cast(null as varchar) as gold_value,
    cast(null as decimal(38, 10)) as abs_tol, cast(null as decimal(38, 10)) as rel_tol
where false
